// A page for dashboard.js without a browser (DashboardScriptTest): elements by id, a canvas context that records
// every call, and fetch answering from page.routes (path prefix -> JSON body); any other path is unreachable, as
// a stopped server is.
'use strict';
const page = {elements: {}, calls: [], routes: {}};
page.count = op => page.calls.filter(c => c.op === op).length;
const context2d = new Proxy({canvas: {width: 420, height: 420}}, {
  get: (target, key) => key in target ? target[key] : (...args) => page.calls.push({op: String(key), args}),
  set: (target, key, value) => {
    target[key] = value;
    page.calls.push({op: 'set ' + String(key), args: [value]});
    return true;
  }});
var document = {getElementById: id => page.elements[id] ??= {id, value: '', textContent: '', innerHTML: '',
  options: [], getContext: () => context2d}};
var location = {search: ''};
var URLSearchParams = class { get() { return null; } };
var sessionStorage = {getItem: () => null, setItem() {}, removeItem() {}};
var window = {prompt: () => null};
var setInterval = () => 0;
var fetch = async path => {
  const route = Object.keys(page.routes).find(prefix => path.startsWith(prefix));
  if (route === undefined) throw new Error('unreachable: ' + path);
  return {ok: true, status: 200, json: async () => page.routes[route]};
};
