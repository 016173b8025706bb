#!/usr/bin/env bash
# Runs the two Slurm scripts beside this one for real, on a one-node Slurm cluster started
# here on loopback, and checks what they make against one run on this machine:
#
# - wuzi-tournament.sbatch: a three-engine tournament of the test engine in 3 array tasks,
#   then its merge job; the merged final report and HTML page must equal the one run's.
# - wuzi-datagen.sbatch: a small data set in 3 array tasks, then its tune job; the weights
#   fitted on the shards must equal those fitted on one run's data, byte for byte (but for
#   the line that names the command that wrote them).
#
# Every daemon this script starts (munged, slurmctld, slurmd) is stopped when it ends, on
# failure too. It needs root (Slurm's daemons run as root here, munged as the munge user)
# and Debian's packages slurmctld, slurmd, slurm-client and munge: with --install it
# installs those that are missing with apt-get. It refuses to run beside a Slurm or munged
# that is already running. Everything else lives in a scratch folder, removed at the end
# unless --keep is given.
#
#   scripts/cluster/slurm-loopback.sh [--install] [--keep]
#
# The binaries are built with `cargo build --release` unless WUZI and TESTENGINE name them.
# docs/cluster.md shows a run of it.
set -euo pipefail

install=0
keep=0
for a in "$@"; do
  case "$a" in
    --install) install=1 ;;
    --keep) keep=1 ;;
    *)
      echo "usage: $0 [--install] [--keep]" >&2
      exit 2
      ;;
  esac
done

say() { printf 'slurm-loopback: %s\n' "$*"; }
die() {
  printf 'slurm-loopback: %s\n' "$*" >&2
  exit 1
}

[ "$(id -u)" = 0 ] || die "needs root (Slurm's daemons run as root on this one-node cluster)"
repo="$(cd "$(dirname "$0")/../.." && pwd)"

missing=()
for pair in slurmctld:slurmctld slurmd:slurmd sbatch:slurm-client munged:munge; do
  command -v "${pair%%:*}" > /dev/null || missing+=("${pair#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
  [ $install = 1 ] || die "missing packages: ${missing[*]} (run with --install to apt-get them)"
  say "installing ${missing[*]}"
  apt-get update -q > /dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" > /dev/null
fi
for d in slurmctld slurmd munged; do
  if pgrep -x "$d" > /dev/null; then die "a $d is already running; this script starts its own"; fi
done

if [ -n "${WUZI:-}" ] && [ -n "${TESTENGINE:-}" ]; then
  wuzi="$WUZI"
  testengine="$TESTENGINE"
else
  say "building wuzi and pbrain-testengine (release)"
  (cd "$repo" && cargo build --release -q --bin wuzi -p wuzi -p wuzi-match --bin pbrain-testengine)
  target="${CARGO_TARGET_DIR:-$repo/target}"
  wuzi="$target/release/wuzi"
  testengine="$target/release/pbrain-testengine"
fi
[ -x "$wuzi" ] || die "no wuzi binary at $wuzi"
[ -x "$testengine" ] || die "no test engine at $testengine"

work="$(mktemp -d /tmp/wuzi-slurm.XXXXXX)"
chmod 755 "$work"
pids=()
made_munge_dir=0
cleanup() {
  local rc=$?
  set +e
  if command -v scancel > /dev/null && [ -n "${SLURM_CONF:-}" ]; then
    scancel --quiet --user=root 2> /dev/null
  fi
  # The daemons in reverse order of their start, each by its own id.
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    kill "${pids[i]}" 2> /dev/null
  done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do
      kill -0 "$pid" 2> /dev/null || break
      sleep 0.1
    done
    kill -9 "$pid" 2> /dev/null
    wait "$pid" 2> /dev/null
  done
  if [ $made_munge_dir = 1 ]; then rm -rf /run/munge; fi
  if [ $keep = 1 ] || [ $rc != 0 ]; then
    say "scratch folder kept: $work"
  else
    rm -rf "$work"
  fi
  if [ $rc = 0 ]; then say "daemons stopped; pass"; else say "daemons stopped; FAILED ($rc)" >&2; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# munge: Slurm's authentication, with the key the package made (or a new one).
if [ ! -d /run/munge ]; then
  mkdir -p /run/munge
  made_munge_dir=1
fi
chown munge:munge /run/munge
chmod 755 /run/munge
if [ ! -s /etc/munge/munge.key ]; then
  say "making a munge key"
  dd if=/dev/urandom of=/etc/munge/munge.key bs=128 count=1 status=none
fi
chown munge:munge /etc/munge/munge.key
chmod 400 /etc/munge/munge.key
mkdir -p "$work/munge"
chown munge:munge "$work/munge"
runuser -u munge -- munged --foreground --log-file="$work/munge/munged.log" \
  --pid-file="$work/munge/munged.pid" --seed-file="$work/munge/munged.seed" \
  > "$work/munge/stdout.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do
  [ -S /run/munge/munge.socket.2 ] && break
  sleep 0.1
done
[ -S /run/munge/munge.socket.2 ] || die "munged did not start ($work/munge/munged.log)"

# slurm: one node on loopback with this machine's cores, no cgroups, no accounting.
host="$(hostname -s)"
cpus="$(nproc)"
mkdir -p "$work/state" "$work/spool" "$work/log" "$work/run"
export SLURM_CONF="$work/slurm.conf"
cat > "$SLURM_CONF" << EOF
ClusterName=wuzi-loopback
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=6817
SlurmdPort=6818
AuthType=auth/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=loopback Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -c -f "$SLURM_CONF" > "$work/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" > "$work/log/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  state="$(sinfo -h -N -o '%t' 2> /dev/null || true)"
  [ "$state" = idle ] && break
  sleep 0.2
done
[ "$state" = idle ] || die "the node did not come up (state '${state:-none}'; logs in $work/log)"
say "one-node Slurm up on $host ($cpus CPUs)"

# Runs an sbatch script and waits for it (array tasks included); fails if any task fails.
submit() {
  local what=$1
  shift
  say "sbatch $* ($what)"
  (cd "$work/run" && timeout 600 sbatch --wait --quiet --cpus-per-task=1 "$@") ||
    die "$what failed (its logs: $work/run/*.log)"
}

# The tournament: the schedule's arguments, one a line, read by every task and the merge.
{
  for spec in r5:5 r9:9 r13:13; do
    echo "--engine"
    echo "cmd=$testengine,arg=random,arg=--seed,arg=${spec#*:},name=${spec%%:*}"
  done
  printf '%s\n' --size 9 --opening e5 --opening d4e6 --opening '0,0, 1,1' --games 8 \
    --turn-time 5s --fresh-process --anchor r13
} > "$work/run/tournament.args"
mapfile -t targs < "$work/run/tournament.args"
export WUZI="$wuzi" SHARDS=3
submit "tournament shards" --array=1-3 "$repo/scripts/cluster/wuzi-tournament.sbatch"
submit "tournament merge" "$repo/scripts/cluster/wuzi-tournament.sbatch"
"$wuzi" tournament "${targs[@]}" --results "$work/whole.txt" --report "$work/whole-report" \
  > "$work/whole-standings.txt"
final() { sed -n '/^=== Tournament finished/,$p' "$1" | grep -v '^Report:'; }
final "$work/run/wuzi-tournament/standings.txt" > "$work/merged-final.txt"
final "$work/whole-standings.txt" > "$work/whole-final.txt"
[ -s "$work/whole-final.txt" ] || die "no final report in the one run's output"
diff -u "$work/whole-final.txt" "$work/merged-final.txt" ||
  die "the merged tournament differs from the one run"
cmp "$work/whole-report/index.html" "$work/run/wuzi-tournament/report/index.html" ||
  die "the merged tournament's report page differs from the one run's"
grep -F 'games of the schedule' "$work/run/wuzi-tournament/standings.txt" | sed 's/^/  /'
say "tournament: 3 Slurm array tasks merged = one run (final report and page)"

# The data set: 3 array tasks, then the fit on their files.
printf '%s\n' --rule freestyle --size 11 --games 9 --nodes 200 --seed 3 \
  > "$work/run/datagen.args"
printf '%s\n' --rule freestyle --epochs 2 --threads 1 > "$work/run/tune.args"
mapfile -t dargs < "$work/run/datagen.args"
mapfile -t uargs < "$work/run/tune.args"
submit "datagen shards" --array=1-3 "$repo/scripts/cluster/wuzi-datagen.sbatch"
submit "tune on the shards" "$repo/scripts/cluster/wuzi-datagen.sbatch"
"$wuzi" datagen "${dargs[@]}" --threads 1 --quiet --out "$work/whole.bin"
"$wuzi" tune "${uargs[@]}" --quiet --data "$work/whole.bin" --out "$work/whole-weights.txt" \
  > /dev/null
# The files' second line says which command wrote them (its --data differs); the rest is the fit.
fit() { grep -v '^# Generated by:' "$1"; }
cmp <(fit "$work/whole-weights.txt") <(fit "$work/run/wuzi-datagen/weights.txt") ||
  die "weights fitted on the shards differ from those fitted on one run's data"
say "datagen: 3 Slurm array tasks, fitted weights = one run's ($(stat -c %s "$work/run/wuzi-datagen/data.bin") bytes of data)"
