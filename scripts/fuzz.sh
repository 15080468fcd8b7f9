#!/usr/bin/env bash
# Builds and runs the libFuzzer targets of Fuzz/ (see docs/robustness.md, Fuzzing).
#
#   scripts/fuzz.sh build                 build the four targets (libFuzzer + AddressSanitizer)
#   scripts/fuzz.sh run TARGET [SECONDS]  fuzz one target (analysis, server, programs or format), default 600 s
#   scripts/fuzz.sh smoke [SECONDS]       every target for SECONDS (default 60): what CI runs
#   scripts/fuzz.sh replay TARGET FILE…   run a target on given inputs (a crash file, say)
#
# Seeds come from Fuzz/Corpus/TARGET (committed; `python3 scripts/fuzz_seeds.py` rewrites
# them; `format` reads the analysis seeds too) and Fuzz/Regressions/TARGET (every input that ever failed, kept so that it never
# fails again). New inputs go to .fuzz/corpus/TARGET, findings to .fuzz/artifacts/TARGET,
# logs to .fuzz/logs. A finding (crash, broken invariant, timeout, leak, more than 2 GiB)
# fails the run. The timeout is 10 s per input, FUZZ_TIMEOUT=N seconds otherwise: an input
# near the analysis's budget (entangled flags) takes seconds under AddressSanitizer, and more
# on a machine busy with other work.
set -euo pipefail
cd "$(dirname "$0")/.."
export SWIFT_BACKTRACE=enable=no
TARGETS=(analysis server programs format)
BIN=.build-fuzz/release

build() {
  for t in "${TARGETS[@]}"; do
    ROUTES_FUZZ=1 swift build -c release --scratch-path .build-fuzz --product "fuzz-$t" \
      --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address 2>&1 \
      | grep -v "Cannot export local symbol '__asan_extra_spill_area'" || true
    [ -x "$BIN/fuzz-$t" ] || { echo "fuzz.sh: building fuzz-$t failed" >&2; exit 2; }
  done
}

max_len() {
  case "$1" in
    server) echo 16384 ;;
    programs) echo 4096 ;;
    *) echo 8192 ;;
  esac
}

run() {
  local t="$1" seconds="${2:-600}"
  mkdir -p ".fuzz/corpus/$t" ".fuzz/artifacts/$t" .fuzz/logs
  local log=".fuzz/logs/$t-$(date +%Y%m%d-%H%M%S).log"
  echo "fuzz-$t: $seconds s, log in $log"
  local status=0
  # (git keeps no empty folders: a target without regressions has no Fuzz/Regressions/TARGET.)
  local seeds=("Fuzz/Corpus/$t")
  [ -d "Fuzz/Regressions/$t" ] && seeds+=("Fuzz/Regressions/$t")
  # The formatter reads what the analysis reads: its seeds and regressions too.
  [ "$t" = format ] && seeds+=("Fuzz/Corpus/analysis" "Fuzz/Regressions/analysis")
  ASAN_OPTIONS=detect_leaks=1 "$BIN/fuzz-$t" -max_total_time="$seconds" -max_len="$(max_len "$t")" \
    -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=".fuzz/artifacts/$t/" \
    ".fuzz/corpus/$t" "${seeds[@]}" >"$log" 2>&1 || status=$?
  grep -E "^stat::|^Done|INITED|DONE|SUMMARY" "$log" | sed "s/^/  /" || true
  if [ "$status" -ne 0 ]; then
    echo "fuzz-$t FAILED (status $status); the end of $log:" >&2
    grep -v "Uses:" "$log" | tail -40 >&2
    return 1
  fi
}

case "${1:-}" in
  build) build ;;
  run) [ -n "${2:-}" ] || { echo "usage: fuzz.sh run TARGET [SECONDS]" >&2; exit 2; }
       [ -x "$BIN/fuzz-$2" ] || build
       run "$2" "${3:-600}" ;;
  smoke) build
         failed=0
         for t in "${TARGETS[@]}"; do run "$t" "${2:-60}" || failed=1; done
         exit $failed ;;
  replay) [ -n "${3:-}" ] || { echo "usage: fuzz.sh replay TARGET FILE..." >&2; exit 2; }
          t="$2"; shift 2
          [ -x "$BIN/fuzz-$t" ] || build
          ASAN_OPTIONS=detect_leaks=1 ROUTES_FUZZ_PRINT=1 "$BIN/fuzz-$t" "$@" ;;
  *) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
