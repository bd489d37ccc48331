#!/usr/bin/env bash
# Dub a video end to end with nothing but curl and node: create an upload project, PUT its parts,
# complete the upload, follow its progress, download what it made.
#
#   examples/dub-a-video.sh [video]     from the repository root, while `make dev` runs
#
# Without a video it makes one with Festival's text2wave and ffmpeg (both installed by `make dev`):
# a host and a guest talking, in two voices, in words the bundled recognizer hears exactly, so the
# dub says what was said (examples/README.md#the-made-up-video). BASE_URL and API_KEY default to
# what `make dev` saved in .dev/credentials.json; the files go to OUT (default ./dubbed). Needs curl
# 7.84 or newer (for -w '%header{etag}').
#
# The README's "Dubbing a video, end to end" prints these same steps: every command block there is
# copied from this file, and test/e2e/examples-walkthrough.test.ts fails if one is not, so the two
# cannot drift. That test also runs this script against the real API, worker and engines.
set -euo pipefail
VIDEO=${1:-${VIDEO:-}}
if [ -z "${API_KEY:-}" ] && [ ! -f .dev/credentials.json ]; then
  echo "No .dev/credentials.json here: run this from the repository root while make dev runs, or set BASE_URL and API_KEY." >&2
  exit 1
fi

# 0. Where the API is and its key: make dev saved both in .dev/credentials.json.
BASE_URL=${BASE_URL:-$(node -p 'require("./.dev/credentials.json").base_url')}
API_KEY=${API_KEY:-$(node -p 'require("./.dev/credentials.json").api_key')}
OUT=${OUT:-dubbed}; mkdir -p "$OUT"
# json FIELD...: prints fields of the JSON answer on stdin, one a line (e.g. json data.id);
# an error answer is printed to stderr instead, and json fails.
json() {
  node -e '
    const answer = JSON.parse(require("fs").readFileSync(0, "utf8"));
    if (answer.error) { console.error(`${answer.error.code}: ${answer.error.message}`); process.exit(1); }
    for (const path of process.argv.slice(1)) console.log(path.split(".").reduce((v, k) => v?.[k], answer) ?? "");
  ' "$@"
}

# 1. The video to dub (VIDEO=path/to/yours.mp4), or 13 s of a host and a guest made here.
if [ -z "${VIDEO:-}" ]; then
  VIDEO=$OUT/rice.mp4
  HOST=cmu_us_slt_arctic_hts GUEST=kal_diphone
  say() { echo "$3" | text2wave -eval "(voice_$2)" -F 16000 -o "$OUT/turn-$1.wav"; }
  say 1 $HOST 'Hello everyone and welcome to the kitchen.'
  say 2 $GUEST 'Hello. Today I will cook rice with fresh vegetables.'
  say 3 $HOST 'Do you add salt?'
  say 4 $GUEST 'Yes. First I will wash the rice.'
  ffmpeg -v error -y -f lavfi -i anullsrc=r=16000:cl=mono -t 0.3 "$OUT/pause.wav"
  printf "file 'turn-%s.wav'\nfile 'pause.wav'\n" 1 2 3 4 >"$OUT/turns.txt"    # each turn, then the pause
  ffmpeg -v error -y -f lavfi -i testsrc2=size=320x240:rate=25 -f concat -i "$OUT/turns.txt" \
    -c:v libx264 -pix_fmt yuv420p -c:a aac -shortest "$VIDEO"
fi

# 2. Create an upload project. The ceiling holds 120 s × 2 languages of credits, nothing more.
#    The Idempotency-Key makes a retry safe: the same key answers the same project.
IDEMPOTENCY_KEY=$(node -e 'console.log(crypto.randomUUID())')
SOURCE=$(node -p 'const f = process.argv[1];
  JSON.stringify({ type: "upload", file_name: require("path").basename(f), size_bytes: require("fs").statSync(f).size })' "$VIDEO")
PROJECT=$(curl -sS -X POST "$BASE_URL/v1/dubbing/projects" \
  -H "Authorization: Bearer $API_KEY" -H "Idempotency-Key: $IDEMPOTENCY_KEY" -H 'Content-Type: application/json' \
  -d '{"name":"Cooking rice","source_locale":"en_us","target_locales":["es_es","ca_es"],
       "max_billable_seconds":120,"source":'"$SOURCE"'}')
ID=$(echo "$PROJECT" | json data.id)
echo "project $ID: $(echo "$PROJECT" | json data.status)"    # awaiting_upload

# 3. PUT each part (8 MiB, the last one smaller) to its signed URL and keep its ETag (quoted, so it
#    goes into JSON as it is). With Content-MD5, storage refuses bytes damaged on the way.
PART_SIZE=$(echo "$PROJECT" | json data.transfer.part_size_bytes)
PARTS=""
while read -r N URL; do
  dd if="$VIDEO" of="$OUT/part" bs="$PART_SIZE" skip=$((N - 1)) count=1 2>/dev/null
  MD5=$(node -p 'require("crypto").createHash("md5").update(require("fs").readFileSync(process.argv[1])).digest("base64")' "$OUT/part")
  ETAG=$(curl -sS --fail -X PUT "$URL" -H "Content-MD5: $MD5" -H 'Content-Type: application/octet-stream' \
    --data-binary @"$OUT/part" -o /dev/null -w '%header{etag}')
  echo "part $N: ETag $ETAG"
  PARTS="$PARTS${PARTS:+,}{\"part_number\":$N,\"etag\":$ETAG}"
done < <(echo "$PROJECT" | node -e '
  for (const p of JSON.parse(require("fs").readFileSync(0, "utf8")).data.transfer.parts) console.log(p.part_number, p.url)')
rm "$OUT/part"

# 4. Connection dropped? GET the project: each part says uploaded true/false; send only the missing
#    ones. Then complete, every part in order:
STATUS=$(curl -sS -X POST "$BASE_URL/v1/dubbing/projects/$ID/upload/complete" \
  -H "Authorization: Bearer $API_KEY" -H 'Content-Type: application/json' \
  -d "{\"parts\":[$PARTS]}" | json data.status)
echo "upload complete: $STATUS"    # validating

# 5. Follow it until it ends; progress.poll_after_seconds says when to look again.
while :; do
  PROJECT=$(curl -sS -H "Authorization: Bearer $API_KEY" "$BASE_URL/v1/dubbing/projects/$ID")
  STATUS=$(echo "$PROJECT" | json data.status)
  echo "$STATUS $(echo "$PROJECT" | json data.progress.percent)%: $(echo "$PROJECT" | json data.progress.message)"
  case $STATUS in completed | partially_completed | failed) break ;; esac
  sleep "$(echo "$PROJECT" | json data.progress.poll_after_seconds)"
done

if [ "$STATUS" = failed ]; then
  echo "The project failed: $(echo "$PROJECT" | json data.failure.message)" >&2
  exit 1
fi

# 6. Download every file of every completed language (-L follows a redirect to a signed URL), then
#    list who speaks, each dubbed in their own voice (404 before speaker detection).
while read -r LOCALE FILE URL; do
  curl -sS --fail -L -H "Authorization: Bearer $API_KEY" -o "$OUT/$LOCALE.$FILE" "$URL"
  echo "saved $OUT/$LOCALE.$FILE"
done < <(echo "$PROJECT" | node -e '
  for (const l of JSON.parse(require("fs").readFileSync(0, "utf8")).data.languages)
    for (const d of l.deliverables) console.log(l.locale, `${d.type.endsWith("_stem") ? d.type.replace("_", "-") + "." : ""}${d.format}`, d.download_url)')
CODE=$(curl -sS -H "Authorization: Bearer $API_KEY" -o "$OUT/speakers.json" -w '%{http_code}' "$BASE_URL/v1/dubbing/projects/$ID/speakers")
if [ "$CODE" = 200 ]; then
  node -e 'for (const s of JSON.parse(require("fs").readFileSync(0, "utf8")).data)
    console.log(`${s.label}: ${s.segments} segments, ${s.speech_seconds} s;`, Object.entries(s.voices).map(([l, v]) => `${l} ${v.voice}`).join(", "))' <"$OUT/speakers.json"
fi
