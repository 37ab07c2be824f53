#!/bin/sh
# One-shot enrolment for the compose shape: makes the tenant that owns the simulated robot, registers the robot
# in the cloud's fleet registry (its command key id and the digest of the profile its edge runs) and writes the
# edge's credential into the `fleet` volume, which the edge reads to ship its audit outbox to the cloud.
# Runs again harmlessly: with a credential already written it does nothing.
set -eu
out=/fleet
db=${PENTAGATE_DB:?PENTAGATE_DB is required}
robot=${PENTAGATE_ROBOT:-ur5e-01}
cli="node /app/bin/pentagate.js"
if [ -s "$out/edge-key" ]; then echo "fleet-enroll: $robot already enrolled"; exit 0; fi
umask 077
kid=$(node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).kid)' /run/secrets/edge_hmac_key)
digest=$($cli edge check --profile /cell/profile.yaml --json | node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0, "utf8")).cfgDigest)')
tenant=$($cli cloud tenant create "${PENTAGATE_TENANT:-fleet}" --db "$db" --json | node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0, "utf8")).id)')
$cli cloud robot add --tenant "$tenant" --robot "$robot" --command-kid "$kid" --profile-digest "$digest" \
  --firmware /cell/provenance/firmware-1.4.2.dsse.json --db "$db" --json \
  | node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0, "utf8")).edgeKey)' > "$out/edge-key.tmp"
mv "$out/edge-key.tmp" "$out/edge-key"
printf '%s' "$tenant" > "$out/tenant-id"
echo "fleet-enroll: robot $robot enrolled in tenant $tenant"
