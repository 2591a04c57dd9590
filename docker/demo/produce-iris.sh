#!/usr/bin/env bash
# Demo data for docker-compose.yml, run inside the apache/kafka image: Fisher's iris as JSON events.
# Four rows in five go to labelled-events; every fifth row, without its label, goes to unlabelled-events
# (id = its 1-based row number) once the trainer has had time to publish a model.
set -euo pipefail

bootstrap="${BOOTSTRAP_SERVERS:-kafka:9092}"
csv="${CSV:-/demo/iris.csv}"
label="${LABEL:-species}"
partitions="${PARTITIONS:-4}"
score_delay_s="${SCORE_DELAY_S:-20}"
bin=/opt/kafka/bin

for topic in labelled-events unlabelled-events; do
  "$bin/kafka-topics.sh" --bootstrap-server "$bootstrap" --create --if-not-exists \
    --topic "$topic" --partitions "$partitions" --replication-factor 1
done

# key|json lines from the CSV; the header names the features; `labelled` says which rows and whether to
# keep the label.
to_events() {
  awk -F, -v labelled="$1" -v label="$label" '
    NR == 1 { for (i = 1; i <= NF; i++) name[i] = $i; next }
    {
      row = NR - 1
      if ((row % 5 != 0) != labelled) next
      features = ""; cls = ""
      for (i = 1; i <= NF; i++) {
        if (name[i] == label) { cls = $i; continue }
        features = features (features == "" ? "" : ",") "\"" name[i] "\":" $i
      }
      if (labelled) printf "row-%d|{\"features\":{%s},\"label\":\"%s\"}\n", row, features, cls
      else printf "row-%d|{\"id\":\"row-%d\",\"features\":{%s}}\n", row, row, features
    }' "$csv"
}

produce() {
  "$bin/kafka-console-producer.sh" --bootstrap-server "$bootstrap" --topic "$1" \
    --property parse.key=true --property key.separator='|'
}

to_events 1 | produce labelled-events
echo "labelled events sent; scoring in ${score_delay_s} s"
sleep "$score_delay_s"
to_events 0 | produce unlabelled-events
echo "unlabelled events sent"
