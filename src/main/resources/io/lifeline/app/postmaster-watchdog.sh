# Stops an embedded PostgreSQL server once the process holding the write end of this script's standard input ends,
# however it ends: the kernel closes that pipe even when the JVM is killed with SIGKILL. With standard input already
# at its end it stops the server at once (a start taking over an orphaned server).
# Arguments: the postmaster's pid, its data directory, seconds of fast shutdown before an immediate one.
# It writes nothing: the JVM that would read its output may be gone.

# Ctrl+C and a closing terminal reach the whole process group: the JVM's shutdown hook stops the server then,
# and this script must still be there if that hook never runs.
trap '' HUP INT TERM

pid=$1
pidfile=$2/postmaster.pid
grace=$3

while read -r line; do :; done

# Only the server it was started for: a later start on the same directory writes another pid into that file.
owns() {
  first=
  read -r first < "$pidfile" 2>/dev/null
  [ "$first" = "$pid" ]
}

owns || exit 0
kill -INT "$pid" 2>/dev/null || exit 0   # fast shutdown: open transactions rolled back, a checkpoint written
ticks=0
while owns && kill -0 "$pid" 2>/dev/null; do
  ticks=$((ticks + 1))
  if [ "$ticks" -eq $((grace * 10)) ]; then
    kill -QUIT "$pid" 2>/dev/null        # immediate shutdown: the next start replays the write-ahead log
  fi
  sleep 0.1
done
exit 0
