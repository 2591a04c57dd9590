#!/usr/bin/env bash
# Side-by-side comparison of our math core with its Java peers (Smile QDA/LDA, MOA naive Bayes), outside the Maven
# build: the peers are GPL and Smile 6 needs JDK 25, so they never enter pom.xml. What it does:
#   1. compiles our classes (mvn compile, offline first) and takes ejml + commons-numbers from our runtime classpath;
#   2. fetches each peer with its dependencies from Maven Central into target/peers/<peer>/lib, by Maven itself
#      (dependency:copy-dependencies on a generated pom), and extracts OpenBLAS (the bytedeco build that Smile 3.1.1
#      depends on) into target/peers/native, because Smile 6 loads libopenblas.so through the FFM API instead of
#      shipping it: both Smile versions then call the same native BLAS/LAPACK;
#   3. compiles docs/peers/src with javac (JDK 25's javac for the Smile 6 harness: Smile 6 classes are version 69)
#      and runs one JVM per (peer, d), printing one markdown table.
# Usage: docs/peers/run.sh            (env: DIMS="16 64", JDK25=/usr/lib/jvm/temurin-25-jdk-amd64, MAX_LOAD=1.5)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$ROOT/target/peers
SRC=$ROOT/docs/peers/src/peers
DIMS=${DIMS:-"16 64"}
JDK25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
MAX_LOAD=${MAX_LOAD:-1.5}
# Pinned peer versions.
SMILE3=com.github.haifengl:smile-core:3.1.1
SMILE6=com.github.haifengl:smile-core:6.3.0
MOA=nz.ac.waikato.cms.moa:moa:2024.07.0

log() { echo "[peers] $*" >&2; }
mkdir -p "$OUT"
# Before OMP_NUM_THREADS=1 is exported below (nproc honours it).
MACHINE="$(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p')"
export MAVEN_OPTS="${MAVEN_OPTS:-} -Dstyle.color=never"

# 1. Our classes and the two libraries the math package uses.
cd "$ROOT"
log "compiling gda-streams ($(git rev-parse --short HEAD))"
mvn -o -q -B compile >&2 2>/dev/null || mvn -q -B compile >&2
mvn -o -q -B dependency:build-classpath -Dmdep.includeScope=runtime -Dmdep.outputFile="$OUT/runtime.cp" >/dev/null 2>&1 \
  || mvn -q -B dependency:build-classpath -Dmdep.includeScope=runtime -Dmdep.outputFile="$OUT/runtime.cp" >/dev/null
OURS="$ROOT/target/classes:$(tr ':' '\n' < "$OUT/runtime.cp" | grep -E '/(ejml-[a-z]+|commons-numbers-[a-z]+)-[0-9.]+\.jar$' | paste -sd:)"

# 2. The peers, each in its own directory (Smile 3 and 6 would clash on one classpath).
fetch() { # name groupId:artifactId:version
  local dir=$OUT/$1 g a v
  IFS=: read -r g a v <<< "$2"
  if [[ -f $dir/lib/.done && $(cat "$dir/lib/.done") == "$2" ]]; then return; fi
  log "fetching $2 and its dependencies"
  rm -rf "$dir" && mkdir -p "$dir"
  cat > "$dir/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.peers</groupId><artifactId>$1</artifactId><version>1</version><packaging>pom</packaging>
  <dependencies><dependency><groupId>$g</groupId><artifactId>$a</artifactId><version>$v</version></dependency></dependencies>
</project>
POM
  mvn -q -B -f "$dir/pom.xml" dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$dir/lib" >&2
  echo "$2" > "$dir/lib/.done"
}
fetch smile3 "$SMILE3"
fetch smile6 "$SMILE6"
fetch moa "$MOA"
if [[ ! -e $OUT/native/libopenblas.so ]]; then
  mkdir -p "$OUT/native"
  unzip -o -j -q "$OUT"/smile3/lib/openblas-*-linux-x86_64.jar 'org/bytedeco/openblas/linux-x86_64/*.so*' \
    -x '*libjni*' -d "$OUT/native"
  ln -sf libopenblas.so.0 "$OUT/native/libopenblas.so"
fi
jars() { ls "$OUT/$1"/lib/*.jar | paste -sd:; }

# 3. The harness, compiled per peer and JDK.
log "compiling the harness"
rm -rf "$OUT/bin-smile3" "$OUT/bin-smile6" "$OUT/bin-moa"
javac -nowarn -d "$OUT/bin-smile3" -cp "$OURS:$(jars smile3)" "$SRC/Harness.java" "$SRC/SmileVsOurs.java"
"$JDK25/bin/javac" -nowarn -d "$OUT/bin-smile6" -cp "$OURS:$(jars smile6)" "$SRC/Harness.java" "$SRC/SmileVsOurs.java"
javac -nowarn -d "$OUT/bin-moa" -cp "$OURS:$OUT/moa/lib/moa-2024.07.0.jar" "$SRC/Harness.java" "$SRC/MoaVsOurs.java"

# Single-threaded BLAS; thread CPU time counts only the calling thread anyway.
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
# JavaCPP (Smile 3's OpenBLAS binding) unpacks its native libraries into a cache: keep it under target/.
COMMON=(--add-modules=jdk.incubator.vector -Xms1g -Xmx1g -Dorg.bytedeco.javacpp.cachedir="$OUT/javacpp-cache")
LOADS=()
quiet() { # wait up to 3 minutes for the 1-minute load to drop to MAX_LOAD
  local load waited=0
  while load=$(cut -d' ' -f1 /proc/loadavg); awk "BEGIN{exit !($load > $MAX_LOAD)}" && (( waited < 180 )); do
    log "1-minute load $load > $MAX_LOAD, waiting"; sleep 15; waited=$((waited + 15))
  done
  LOADS+=("$1 $(cut -d' ' -f1-3 /proc/loadavg)")
}
ROWS=$OUT/rows.md
: > "$ROWS"
for d in $DIMS; do
  quiet "smile3 d=$d"; log "Smile 3.1.1 vs ours, JDK 17, d=$d"
  java "${COMMON[@]}" -Dpeer="Smile 3.1.1" -cp "$OUT/bin-smile3:$OURS:$(jars smile3)" peers.SmileVsOurs "$d" \
    2> >(grep -v -e '^SLF4J' -e 'incubator' >&2) | tee -a "$ROWS"
  quiet "smile6 d=$d"; log "Smile 6.3.0 vs ours, JDK 25, d=$d"
  LD_LIBRARY_PATH=$OUT/native "$JDK25/bin/java" "${COMMON[@]}" --enable-native-access=ALL-UNNAMED -Dpeer="Smile 6.3.0" \
    -cp "$OUT/bin-smile6:$OURS:$(jars smile6)" peers.SmileVsOurs "$d" \
    2> >(grep -v -e '^SLF4J' -e 'incubator' >&2) | tee -a "$ROWS"
  quiet "moa d=$d"; log "MOA 2024.07.0 vs ours, JDK 17, d=$d"
  java "${COMMON[@]}" -Dpeer="MOA 2024.07.0" -cp "$OUT/bin-moa:$OURS:$OUT/moa/lib/moa-2024.07.0.jar" peers.MoaVsOurs "$d" \
    2> >(grep -v -e '^SLF4J' -e 'incubator' >&2) | tee -a "$ROWS"
done

echo
echo "gda-streams $(git -C "$ROOT" rev-parse --short HEAD); $MACHINE;" \
  "java 17 = $(java -version 2>&1 | head -1), java 25 = $("$JDK25/bin/java" -version 2>&1 | head -1)"
echo "Thread CPU time, minimum over 20 interleaved rounds after >= 2 s of warm-up, one JVM per row group;" \
  "ours/peer = peer time / our time (> 1: ours is faster). Agreement: argmax labels on 100,000 fresh points."
echo
echo "| operation | d | JDK | peer | peer time | ours | our time | ours/peer | label agreement | max abs p diff |"
echo "|---|---|---|---|---|---|---|---|---|---|"
sort -t'|' -s -k2,2 -k3,3n -k4,4n "$ROWS"
echo
echo "1-minute/5/15 load before each JVM: ${LOADS[*]/%/;}"
