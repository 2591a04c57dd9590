#!/usr/bin/env bash
if (($# < 1)); then
  echo "USAGE: $0 server.properties [--override property=value]*" >&2
  exit 1
fi
export KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xmx1G -Xms1G}"
exec /opt/kafka/bin/kafka-run-class.sh kafka.Kafka "$@"
