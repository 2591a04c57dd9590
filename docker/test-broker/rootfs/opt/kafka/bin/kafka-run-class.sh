#!/usr/bin/env bash
# Runs a class from the Maven jars in /opt/kafka/libs with the JVM option variables of Apache's script
# (KAFKA_HEAP_OPTS, KAFKA_JVM_PERFORMANCE_OPTS, KAFKA_GC_LOG_OPTS, KAFKA_JMX_OPTS, KAFKA_LOG4J_OPTS, KAFKA_OPTS).
set -o nounset -o errexit
if (($# < 1)); then
  echo "USAGE: $0 [-daemon] [-name servicename] [-loggc] classname [opts]" >&2
  exit 1
fi

java="${JAVA_HOME:-/opt/java/openjdk}/bin/java"
heap_opts="${KAFKA_HEAP_OPTS:--Xmx256M}"
performance_opts="${KAFKA_JVM_PERFORMANCE_OPTS:--server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent -Djava.awt.headless=true}"
jmx_opts="${KAFKA_JMX_OPTS:-}"
if [[ -n "${JMX_PORT:-}" && "${jmx_opts}" != *jmxremote.port* ]]; then
  jmx_opts="${jmx_opts} -Dcom.sun.management.jmxremote.port=${JMX_PORT}"
fi

# slf4j-simple stands in for log4j2: root level and per-logger levels from the official image's variables.
log_opts="-Dorg.slf4j.simpleLogger.defaultLogLevel=$(tr '[:upper:]' '[:lower:]' <<< "${KAFKA_LOG4J_ROOT_LOGLEVEL:-info}")"
if [[ -n "${KAFKA_LOG4J_LOGGERS:-}" ]]; then
  IFS=',' read -r -a loggers <<< "${KAFKA_LOG4J_LOGGERS}"
  for logger in "${loggers[@]}"; do
    name="${logger%%=*}"
    level="${logger#*=}"
    log_opts="${log_opts} -Dorg.slf4j.simpleLogger.log.${name// /}=$(tr '[:upper:]' '[:lower:]' <<< "${level// /}")"
  done
fi

# Word splitting of the option variables is intended, as in Apache's script.
# shellcheck disable=SC2086
exec "${java}" ${heap_opts} ${performance_opts} ${KAFKA_GC_LOG_OPTS:-} ${jmx_opts} ${log_opts} \
  ${KAFKA_LOG4J_OPTS:-} ${KAFKA_OPTS:-} -cp "/opt/kafka/resources:/opt/kafka/libs/*" "$@"
