#!/bin/sh
# The spool against another local user (issue 22, items 1 and 3). The
# default spool lives in a world-writable, sticky directory (/var/tmp), so
# another user can create the victim's spool path first. Here $D/vartmp
# (mode 1777) plays /var/tmp, and every attack runs both ways: nobody
# against root, and root against nobody. Each attack must leave the
# victim's record neither where the attacker can reach it nor sent as
# someone else's:
#  - a symbolic link at the spool path: refused (not followed), record lost
#    loudly, nothing written where the link points;
#  - a mode-777 directory owned by the attacker: refused, nothing written;
#  - a forged .rec pre-filled (attacker's directory: refused; in the
#    victim's own spool, owned by the victim: set aside as .rejected, never
#    sent); another spool's genuine record copied in: set aside;
#  - a FIFO named like a record: set aside, no hang (the send bound holds);
#  - the victim's own spooled records still go through.
. "$(dirname "$0")/lib.sh"
cd "$D" || exit 1
[ "$(id -u)" = 0 ] || { echo "skipped: needs root (runs attacks as nobody and on nobody)"; exit 77; }
chmod 755 "$D"
VT="$D/vartmp"
mkdir -m 1777 "$VT"
NB=$(id -u nobody)
# nobody needs its own copy of the HMAC key (a key file must be mode 600).
cp "$KEY" "$D/key-nb" && chown nobody:nogroup "$D/key-nb"
start_augurd
LIVE="127.0.0.1:$PORT"
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"; }
# run_as WHO ARGS...: augur profile as root or nobody, with that user's key.
run_as() {
  who=$1
  shift
  if [ "$who" = root ]; then
    timeout 30 "$AUGUR" profile --key "$KEY" "$@"
  else
    as_nobody timeout 30 "$AUGUR" profile --key "$D/key-nb" "$@"
  fi
}
# spool_job WHO SPOOL: a job whose collector is dead: its record must be spooled.
spool_job() { run_as "$1" --collector 127.0.0.1:1 --deadline 300 --spool "$2" -- true; }
flush() { run_as "$1" --collector "$LIVE" --deadline 3000 --spool "$2" --flush; }
# stored WANT WHAT: the database holds WANT jobs, none of them forged.
stored() {
  got=$(python3 -c "import sqlite3,sys; print(*sqlite3.connect(sys.argv[1]).execute(\"select count(*), count(nullif(job_name like 'forged%', 0)) from job\").fetchone())" "$DB")
  [ "$got" = "$1 0" ] || fail "$2 (jobs, forged jobs: $got; want $1 0)"
}
# forge DIR UID: a valid job record (no process) of UID, job id "forged",
# as the raw payload the spool held before records were signed; prints its
# path. (perl: python starts in seconds on a loaded machine.)
forge() {
  perl -e '
    open(my $r, "<", "/dev/urandom") or die; read($r, my $uid, 16) == 16 or die;
    my $job = $uid . pack("a64 a32 a64 a32 a256 Q< Q< Q< Q< Q< q<",
      "forged", "0", "evil", "user", "", $ARGV[1], 1, 2, 1, 0, 0);
    length($job) == 512 or die "layout";
    my $path = "$ARGV[0]/" . unpack("H*", $uid) . ".rec";
    open(my $f, ">", $path) or die "$path: $!"; print $f $job; close($f) or die;
    print "$path\n";' "$1" "$2"
}
# in_dir DIR: number of files in DIR (hidden ones too).
in_dir() { ls -A "$1" | wc -l; }

njobs=0
for pair in "nobody root" "root nobody"; do
  set -- $pair
  attacker=$1 victim=$2
  vuid=$([ "$victim" = root ] && echo 0 || echo "$NB")
  auid=$([ "$attacker" = root ] && echo 0 || echo "$NB")
  SP="$VT/augur-spool-$vuid"
  rm -rf "$SP" "$VT/loot"
  as() { if [ "$attacker" = root ]; then "$@"; else as_nobody "$@"; fi; }

  # 1. A link at the victim's spool path, to a directory the attacker reads.
  as mkdir -m 777 "$VT/loot"
  as ln -s "$VT/loot" "$SP"
  expect 1 - spool_job "$victim" "$SP"
  contains "$D/err" "is a symbolic link: refused"
  contains "$D/err" "record LOST"
  [ "$(in_dir "$VT/loot")" = 0 ] || fail "$attacker against $victim: the link was followed: $(ls -A "$VT/loot")"
  rm -rf "$SP" "$VT/loot"

  # 2. A mode-777 directory of the attacker.
  as mkdir -m 777 "$SP"
  as chmod 777 "$SP"
  expect 1 - spool_job "$victim" "$SP"
  contains "$D/err" "belongs to uid $auid, not to you (uid $vuid): refused"
  [ "$(in_dir "$SP")" = 0 ] || fail "$attacker against $victim: spooled into the attacker's directory: $(ls -A "$SP")"

  # 3a. The attacker's directory pre-filled with a forged record: --flush
  # refuses the whole spool; nothing is signed and sent.
  as chmod 700 "$SP"
  F=$(forge "$SP" "$vuid")
  chown "$auid" "$F"
  expect 1 - flush "$victim" "$SP"
  contains "$D/err" "belongs to uid $auid"
  stored "$njobs" "$attacker against $victim: a forged record in the attacker's spool was sent"
  rm -rf "$SP"

  # 4. The victim's own spool, used for real: its record is spooled and
  # delivered by its flush (the key and the checks do not get in the way).
  expect 0 - spool_job "$victim" "$SP"
  contains "$D/err" "record spooled"
  [ "$(stat -c '%u %a' "$SP")" = "$vuid 700" ] || fail "spool made as $(stat -c '%u %a' "$SP")"
  [ "$(stat -c '%u %a' "$SP/.key")" = "$vuid 600" ] || fail "spool key made as $(stat -c '%u %a' "$SP/.key")"
  expect 0 - flush "$victim" "$SP"
  contains "$D/err" "1 record delivered, 0 left"
  njobs=$((njobs + 1))
  stored "$njobs" "$victim's own spooled record was not stored"

  # 3b. Inside the victim's own spool (only root can write there: here when
  # root is the attacker; as nobody, the victim root's own old-format file):
  # a forged record owned by the victim, one owned by someone else, and a
  # genuine record of another spool copied in: all set aside, none sent.
  expect 0 - spool_job "$attacker" "$VT/other-$attacker"
  OTHER=$(ls "$VT/other-$attacker/"*.rec)
  F1=$(forge "$SP" "$vuid")
  F2=$(forge "$SP" "$vuid")
  cp "$OTHER" "$SP/"
  chown "$vuid" "$F1" "$SP/$(basename "$OTHER")"
  chown "$auid" "$F2"
  mkfifo "$SP/0123456789abcdef0123456789abcdef.rec"
  chown "$vuid" "$SP/0123456789abcdef0123456789abcdef.rec"
  t0=$(date +%s%N)
  expect 0 - flush "$victim" "$SP"
  ms=$((($(date +%s%N) - t0) / 1000000))
  [ "$ms" -lt 10000 ] || fail "$victim's flush took $ms ms with a FIFO in its spool"
  contains "$D/err" "$(basename "$F1") set aside as $(basename "$F1").rejected: not a signed spool record"
  contains "$D/err" "$(basename "$F2") set aside as $(basename "$F2").rejected: owned by another user"
  contains "$D/err" "$(basename "$OTHER") set aside as $(basename "$OTHER").rejected: not signed with this spool's key"
  contains "$D/err" "0123456789abcdef0123456789abcdef.rec set aside as 0123456789abcdef0123456789abcdef.rec.rejected: a FIFO"
  stored "$njobs" "$attacker against $victim: a planted or copied record was sent with $victim's key"
  [ "$(ls "$SP" | grep -c '\.rejected$')" = 4 ] || fail "want 4 files set aside: $(ls -A "$SP")"

  # 5. A FIFO in the spool does not hang the next job either: its send, then
  # the drain after it, stay within the deadline.
  rm -f "$SP"/*.rejected
  mkfifo "$SP/fedcba9876543210fedcba9876543210.rec"
  chown "$vuid" "$SP/fedcba9876543210fedcba9876543210.rec"
  t0=$(date +%s%N)
  expect 0 - run_as "$victim" --collector "$LIVE" --deadline 1500 --spool "$SP" -- true
  ms=$((($(date +%s%N) - t0) / 1000000))
  [ "$ms" -lt 8000 ] || fail "$victim's job took $ms ms with a FIFO in its spool"
  contains "$D/err" "set aside as fedcba9876543210fedcba9876543210.rec.rejected: a FIFO"
  njobs=$((njobs + 1)) # that job's own record
  rm -rf "$SP" "$VT/other-$attacker"
done
finish
