#!/usr/bin/env bash
# Dub a video end to end with nothing but curl and node: create an upload project, PUT its parts,
# complete the upload, follow its progress, download what it made.
#
#   examples/dub-a-video.sh [video]     from the repository root, while `make dev` runs
#
# Without a video it makes 8 seconds of English speech with espeak-ng and ffmpeg (both installed by
# `make dev`). BASE_URL and API_KEY default to what `make dev` saved in .dev/credentials.json; the
# files go to OUT (default ./dubbed). Needs curl 7.84 or newer (for -w '%header{etag}').
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

# 1. The video to dub (VIDEO=path/to/yours.mp4), or 8 seconds of English speech made here.
if [ -z "${VIDEO:-}" ]; then
  VIDEO=$OUT/rice.mp4
  espeak-ng -v en-us -w "$OUT/speech.wav" "Hello everyone and welcome to the kitchen. Today we cook rice with fresh vegetables."
  ffmpeg -v error -y -f lavfi -i testsrc2=size=320x240:rate=25 -i "$OUT/speech.wav" \
    -c:v libx264 -pix_fmt yuv420p -c:a aac -shortest "$VIDEO"
fi

# 2. Create an upload project. The ceiling holds 120 s × 2 languages of credits, nothing more.
#    The Idempotency-Key makes a retry of this request safe: the same key answers the same project.
IDEMPOTENCY_KEY=$(node -e 'console.log(crypto.randomUUID())')
SOURCE=$(node -p 'const f = process.argv[1];
  JSON.stringify({ type: "upload", file_name: require("path").basename(f), size_bytes: require("fs").statSync(f).size })' "$VIDEO")
PROJECT=$(curl -sS -X POST "$BASE_URL/v1/dubbing/projects" \
  -H "Authorization: Bearer $API_KEY" -H "Idempotency-Key: $IDEMPOTENCY_KEY" -H 'Content-Type: application/json' \
  -d '{"name":"Cooking rice","source_locale":"en_us","target_locales":["es_es","ca_es"],
       "max_billable_seconds":120,"source":'"$SOURCE"'}')
ID=$(echo "$PROJECT" | json data.id)
echo "project $ID: $(echo "$PROJECT" | json data.status)"    # awaiting_upload

# 3. PUT each part's bytes to its signed URL (data.transfer.parts; 8 MiB parts, the last one
#    smaller) and keep each ETag. Content-MD5 (base64 MD5 of the part) makes storage refuse bytes
#    damaged or cut short on the way. An ETag is a quoted string, so it goes into JSON as it is.
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

# 4. Connection dropped? GET the project (include_transfer defaults to true): each part says
#    uploaded true/false, with its etag; send only the missing ones. Then complete, every part in order:
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

# 6. Download every file of every completed language. Video (mp4), audio (mp3, wav) and the thumbnail (png)
#    redirect to a short-lived signed URL, which -L follows; subtitles (vtt, srt) come in the body.
while read -r LOCALE FORMAT URL; do
  curl -sS --fail -L -H "Authorization: Bearer $API_KEY" -o "$OUT/$LOCALE.$FORMAT" "$URL"
  echo "saved $OUT/$LOCALE.$FORMAT"
done < <(echo "$PROJECT" | node -e '
  for (const l of JSON.parse(require("fs").readFileSync(0, "utf8")).data.languages)
    for (const d of l.deliverables) console.log(l.locale, d.format, d.download_url)')
