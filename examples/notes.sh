#!/usr/bin/env bash
# Read meeting notes with curl and node: every listed meeting, page by page, then the newest one
# in full (transcript, notes, summary).
#
#   examples/notes.sh [limit]     from the repository root, while `make dev` runs
#
# The dev key may read the dev user's meetings (its workspace is that user's personal one). To see
# more than the dev seed's, import the sample export first:
#   npm run console -- meetings:import --file examples/meetings.json --owner-email dev@dubbing.local
# test/integration/examples-meetings.test.ts runs both against the real API.
set -euo pipefail
LIMIT=${1:-2}
if [ -z "${API_KEY:-}" ] && [ ! -f .dev/credentials.json ]; then
  echo "No .dev/credentials.json here: run this from the repository root while make dev runs, or set BASE_URL and API_KEY." >&2
  exit 1
fi
BASE_URL=${BASE_URL:-$(node -p 'require("./.dev/credentials.json").base_url')}
API_KEY=${API_KEY:-$(node -p 'require("./.dev/credentials.json").api_key')}

# node -e CODE on the JSON answer on stdin, as `answer`; an error answer is printed to stderr
# instead, and this fails.
answer() {
  node -e '
    const answer = JSON.parse(require("fs").readFileSync(0, "utf8"));
    if (answer.error) { console.error(`${answer.error.code}: ${answer.error.message}`); process.exit(1); }
    const when = (seconds) => new Date(seconds * 1000).toISOString().slice(0, 16).replace("T", " ");
    new Function("answer", "when", process.argv[1])(answer, when);
  ' "$1"
}

# 1. The list: metadata only, newest first. Follow page.next_offset while page.has_more.
OFFSET=0
FIRST=""
while [ -n "$OFFSET" ]; do
  PAGE=$(curl -sS -H "Authorization: Bearer $API_KEY" "$BASE_URL/v1/notes/meetings?limit=$LIMIT&offset=$OFFSET")
  echo "$PAGE" | answer 'for (const m of answer.data) console.log(`${when(m.started_at)}  ${m.name}  (${m.id})`)'
  [ -n "$FIRST" ] || FIRST=$(echo "$PAGE" | answer 'console.log(answer.data[0]?.id ?? "")')
  OFFSET=$(echo "$PAGE" | answer 'console.log(answer.page.has_more ? answer.page.next_offset : "")')
done

# 2. One meeting in full: what was saved, nothing generated.
if [ -n "$FIRST" ]; then
  curl -sS -H "Authorization: Bearer $API_KEY" "$BASE_URL/v1/notes/meetings/$FIRST" | answer '
    const m = answer.data;
    console.log(`\n# ${m.name}\n${when(m.started_at)}, ${Math.round(m.duration_seconds / 60)} min; tags: ${m.tags.map((t) => t.name).join(", ") || "none"}`);
    for (const s of m.transcript_segments) console.log(`${s.speaker}: ${s.text}`);
    for (const n of m.notes) console.log(`note: ${n.text}`);
    console.log(m.summary ?? "(no summary)")'
fi
