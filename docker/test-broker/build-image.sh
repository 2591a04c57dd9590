#!/usr/bin/env bash
# Builds an apache/kafka-compatible broker image with no image registry: a jlink'd JRE from a host JDK,
# the kafka_2.13 jars and their dependencies from Maven, busybox, bash and the host's glibc, put into a
# root file system tarball and loaded with `docker import`. Same entry point (/etc/kafka/docker/run),
# same KAFKA_* variable contract, same paths (/opt/kafka, /mnt/shared/config, /var/lib/kafka/data) and
# user (appuser, uid 1000) as the official image, so Testcontainers' KafkaContainer accepts it through
# DockerImageName.asCompatibleSubstituteFor("apache/kafka").
#
# Prints the image name on stdout (all progress goes to stderr). Skips the build when an image built from
# the same recipe (label io.gdastreams.recipe) is already present.
#
# Environment: KAFKA_VERSION (default: the pom's kafka.version; .ci/provision-docker.sh also builds its
# kafka.older-broker.version), IMAGE (default gda-streams/kafka-test:<that version>), WORK_DIR (default
# target/test-broker-image/<that version>, git-ignored), JLINK_JDK (a JDK with jlink; default: the first usable of
# /usr/lib/jvm/java-17-openjdk-amd64, /usr/lib/jvm/temurin-25-jdk-amd64, $JAVA_HOME), MVN_OPTS (extra
# Maven options, e.g. -o), FORCE=1 (rebuild even if up to date).
set -euo pipefail

readonly HERE="$(cd "$(dirname "$0")" && pwd)"
readonly ROOT="$(cd "$HERE/../.." && pwd)"
pom_property() { sed -n "s:.*<$1>\\(.*\\)</$1>.*:\\1:p" "$ROOT/pom.xml" | head -n 1; }
readonly KAFKA_VERSION="${KAFKA_VERSION:-$(pom_property kafka.version)}"
readonly IMAGE="${IMAGE:-gda-streams/kafka-test:${KAFKA_VERSION}}"
readonly WORK="${WORK_DIR:-$ROOT/target/test-broker-image/$KAFKA_VERSION}"
readonly ROOTFS="$WORK/rootfs"
readonly APP_UID=1000
# Modules the broker's classpath uses (jdeps -s -R on kafka_2.13), plus JMX, JFR, jcmd and crypto support.
readonly JRE_MODULES=java.base,java.compiler,java.desktop,java.instrument,java.logging,java.management,java.management.rmi,java.naming,java.net.http,java.rmi,java.scripting,java.security.jgss,java.security.sasl,java.sql,java.transaction.xa,java.xml,jdk.attach,jdk.crypto.cryptoki,jdk.crypto.ec,jdk.jcmd,jdk.jfr,jdk.management,jdk.management.agent,jdk.naming.dns,jdk.net,jdk.security.auth,jdk.security.jgss,jdk.unsupported,jdk.zipfs

log() { printf '[build-image] %s\n' "$*" >&2; }
step_start() { STEP_T0="$(date +%s.%N)"; }
step_done() { log "$1: $(awk -v a="$STEP_T0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"; }

pick_jdk() {
  local candidate
  for candidate in "${JLINK_JDK:-}" /usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/temurin-25-jdk-amd64 "${JAVA_HOME:-}"; do
    [[ -n "$candidate" && -x "$candidate/bin/jlink" ]] || continue
    # jlink needs the jmods, unless the JDK can link from its own run-time image (JEP 493, JDK 24+).
    if [[ -f "$candidate/jmods/java.base.jmod" ]] || "$candidate/bin/jlink" --help 2>&1 | grep -q -- '--generate-linkable-runtime\|run-time image'; then
      printf '%s\n' "$candidate"
      return 0
    fi
  done
  log "no JDK with jlink and jmods found (set JLINK_JDK)"
  return 1
}

recipe_hash() {
  {
    printf 'kafka=%s jackson=%s scala=%s slf4j=%s\n' "$KAFKA_VERSION" "$(pom_property jackson.version)" \
      "$(pom_property scala.version)" "$(pom_property slf4j.version)"
    cat "$JDK/release"
    (cd "$HERE" && find . -type f ! -name '*.md' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum)
    sha256sum /bin/busybox "$BASH_BINARY"
  } | sha256sum | cut -c1-16
}

# Copies an ELF file's shared-library closure (as ldd resolves it on this host) into the rootfs.
copy_shared_libraries() {
  local lib
  # Libraries the JRE finds through $ORIGIN are already inside the rootfs.
  ldd "$@" 2> /dev/null | awk '/=> \// { print $3 } /^[ \t]*\/[^ ]*ld-linux/ { print $1 }' | grep -v "^$ROOTFS/" | sort -u |
    while read -r lib; do
      cp -L --parents "$lib" "$ROOTFS"
    done
}

JDK="$(pick_jdk)"
BASH_BINARY="$(command -v bash-static || command -v bash)"
[[ -x /bin/busybox ]] || { log "/bin/busybox missing (apt-get install busybox-static)"; exit 1; }
HASH="$(recipe_hash)"

if [[ "${FORCE:-0}" != 1 ]] &&
   [[ "$(docker image inspect --format '{{ index .Config.Labels "io.gdastreams.recipe" }}' "$IMAGE" 2> /dev/null)" == "$HASH" ]]; then
  log "$IMAGE is up to date (recipe $HASH)"
  printf '%s\n' "$IMAGE"
  exit 0
fi
log "building $IMAGE (kafka $KAFKA_VERSION, JRE from $JDK, recipe $HASH) in $WORK"
rm -rf "$WORK"
mkdir -p "$ROOTFS"

step_start
# shellcheck disable=SC2086
mvn -B -ntp -q -Dstyle.color=never ${MVN_OPTS:-} -f "$HERE/pom.xml" -Dkafka.version="$KAFKA_VERSION" \
  -Djackson.version="$(pom_property jackson.version)" -Dscala.version="$(pom_property scala.version)" \
  -Dslf4j.version="$(pom_property slf4j.version)" \
  dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$ROOTFS/opt/kafka/libs" >&2
step_done "kafka jars from Maven ($(ls "$ROOTFS/opt/kafka/libs" | wc -l) jars)"

step_start
mkdir -p "$ROOTFS/opt/java"
"$JDK/bin/jlink" --add-modules "$JRE_MODULES" --strip-debug --no-header-files --no-man-pages \
  --generate-cds-archive --output "$ROOTFS/opt/java/openjdk" >&2
step_done "jlink JRE ($(du -sh "$ROOTFS/opt/java/openjdk" | cut -f1))"

step_start
mkdir -p "$ROOTFS"/{bin,usr/bin,etc,tmp,root,home/appuser,var/lib/kafka/data,etc/kafka/secrets,mnt/shared/config,usr/logs,opt/kafka/config}
cp /bin/busybox "$ROOTFS/bin/busybox"
for applet in $(/bin/busybox --list); do
  [[ -e "$ROOTFS/bin/$applet" ]] || ln -s busybox "$ROOTFS/bin/$applet"
done
ln -s /bin/busybox "$ROOTFS/usr/bin/env"
cp -L "$BASH_BINARY" "$ROOTFS/bin/bash"
copy_shared_libraries "$ROOTFS/bin/bash" "$ROOTFS/opt/java/openjdk/bin/"* "$ROOTFS/opt/java/openjdk/lib/server/libjvm.so" \
  $(find "$ROOTFS/opt/java/openjdk/lib" -maxdepth 1 -name '*.so' ! -regex '.*/lib\(awt_xawt\|splashscreen\|jawt\|fontmanager\|jsound\|javajpeg\|lcms\)\.so')
# glibc's compatibility stubs: JNI libraries unpacked at run time (RocksDB, zstd, snappy) still link them.
for soname in libpthread.so.0 libdl.so.2 librt.so.1 libresolv.so.2 libutil.so.1; do
  path="$(ldconfig -p | awk -v name="$soname" '$1 == name && /x86-64/ { print $NF; exit }')"
  [[ -n "$path" ]] && cp -L --parents "$path" "$ROOTFS"
done
cp -r "$HERE/rootfs/." "$ROOTFS/"
cat > "$ROOTFS/etc/passwd" << EOF
root:x:0:0:root:/root:/bin/bash
appuser:x:$APP_UID:$APP_UID::/home/appuser:/bin/bash
EOF
printf 'root:x:0:\nappuser:x:%s:\n' "$APP_UID" > "$ROOTFS/etc/group"
printf 'passwd: files\ngroup: files\nhosts: files dns\n' > "$ROOTFS/etc/nsswitch.conf"
chmod 1777 "$ROOTFS/tmp"
# Ownership as in the official image: appuser owns what the entry point writes.
chown -R "$APP_UID:$APP_UID" "$ROOTFS/home/appuser" "$ROOTFS/opt/kafka" "$ROOTFS/mnt/shared/config" "$ROOTFS/usr/logs"
chown -R "$APP_UID:0" "$ROOTFS/var/lib/kafka" "$ROOTFS/etc/kafka"
chmod -R ug+w "$ROOTFS/var/lib/kafka" "$ROOTFS/etc/kafka"
step_done "root file system ($(du -sh "$ROOTFS" | cut -f1))"

step_start
tar --numeric-owner -C "$ROOTFS" -cf - . | docker import \
  --change 'ENV JAVA_HOME=/opt/java/openjdk' \
  --change 'ENV PATH=/opt/java/openjdk/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'EXPOSE 9092' \
  --change 'USER appuser' \
  --change 'WORKDIR /' \
  --change 'VOLUME ["/etc/kafka/secrets", "/var/lib/kafka/data", "/mnt/shared/config"]' \
  --change "LABEL io.gdastreams.recipe=$HASH org.opencontainers.image.title=gda-streams-kafka-test org.opencontainers.image.version=$KAFKA_VERSION" \
  --change 'CMD ["/etc/kafka/docker/run"]' \
  - "$IMAGE" > /dev/null
step_done "docker import"
rm -rf "$WORK"
printf '%s\n' "$IMAGE"
