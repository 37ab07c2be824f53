#!/usr/bin/env bash
# Creates the secrets docker-compose.yml mounts, in deploy/secrets/ (git-ignored, mode 0600).
# Needs the project built (`npm run build`) and mosquitto_passwd (Debian package mosquitto).
set -euo pipefail
usage='Usage: deploy/make-secrets.sh

Writes the secrets docker-compose.yml mounts into deploy/secrets/ (mode 0600): the PostgreSQL password,
the cloud signing key, the edge HMAC key and the broker accounts. A file already there is kept, so running
it again changes nothing. Needs `npm run build` and mosquitto_passwd.'
case "${1-}" in
  '') ;;
  -h | --help) printf '%s\n' "$usage"; exit 0 ;;
  *) printf 'make-secrets.sh: unknown argument "%s"\n%s\n' "$1" "$usage" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.."
dir=deploy/secrets
mkdir -p "$dir" && chmod 700 "$dir"
umask 077
pg=$(openssl rand -hex 24)
[ -f "$dir/postgres_password" ] || printf '%s' "$pg" > "$dir/postgres_password"
[ -f "$dir/pgpass" ] || printf 'postgres:5432:pentagate:pentagate:%s\n' "$(cat "$dir/postgres_password")" > "$dir/pgpass"
[ -f "$dir/cloud_signing_key.pem" ] || node bin/pentagate.js keys generate --kind ed25519 --out "$dir/cloud_signing_key.pem"
[ -f "$dir/edge_hmac_key.json" ] || node bin/pentagate.js keys generate --kind hmac --out "$dir/edge_hmac_key.json"
if [ ! -f "$dir/mosquitto.passwd" ]; then
  : > "$dir/mosquitto.passwd"
  for user in edge-ur5e-01 robot-ur5e-01 sensor-ur5e-01 operator-ur5e-01; do
    pw=$(openssl rand -hex 24)
    # The names docker-compose.yml's secrets use: the edge's, the simulated robot's, its proximity sensors'
    # and its operator's.
    case "$user" in
      edge-ur5e-01) printf '%s' "$pw" > "$dir/edge_mqtt_password" ;;
      robot-ur5e-01) printf '%s' "$pw" > "$dir/robot-ur5e-01.mqtt-password" ;;
      sensor-ur5e-01) printf '%s' "$pw" > "$dir/sensor-ur5e-01.mqtt-password" ;;
      operator-ur5e-01) printf '%s' "$pw" > "$dir/operator-ur5e-01.mqtt-password" ;;
    esac
    mosquitto_passwd -b "$dir/mosquitto.passwd" "$user" "$pw"
  done
fi
# The Pentagate containers run as the image's `node` user (uid 1000), and Docker bind-mounts secrets with their
# host owner and mode: when this runs as root, hand the files those containers read to that uid (still 0600).
if [ "$(id -u)" = 0 ]; then
  for f in cloud_signing_key.pem edge_hmac_key.json pgpass edge_mqtt_password robot-ur5e-01.mqtt-password sensor-ur5e-01.mqtt-password operator-ur5e-01.mqtt-password; do
    chown "${PENTAGATE_SECRETS_UID:-1000}:${PENTAGATE_SECRETS_UID:-1000}" "$dir/$f"
  done
  chown 1883:1883 "$dir/mosquitto.passwd" # the broker image's `mosquitto` user

fi
echo "secrets written to $dir"
