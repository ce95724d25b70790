#!/bin/sh
# cluster.sh - a single-node Slurm cluster in a directory, on loopback,
# for the tests: slurmctld and slurmd of Debian's slurm-wlm, no munge
# (auth/none, cred/none: one machine, the tests' own), no cgroups.
#
#   tests/slurm/cluster.sh start DIR   write DIR/slurm.conf, start both,
#                                      wait until the node is idle
#   tests/slurm/cluster.sh stop DIR    stop both
#
# Clients find it through SLURM_CONF=DIR/slurm.conf.
set -eu
cmd=$1
dir=$(cd "$2" && pwd)
conf=$dir/slurm.conf

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

case $cmd in
start)
	mkdir -p "$dir/state" "$dir/spool"
	cat >"$conf" <<EOT
ClusterName=provbench
SlurmctldHost=$(hostname -s)(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
AuthType=auth/none
CredType=cred/none
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
NodeName=pbnode NodeHostname=$(hostname -s) NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=pb Nodes=pbnode Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
EOT
	SLURM_CONF=$conf slurmctld -f "$conf"
	SLURM_CONF=$conf slurmd -f "$conf" -N pbnode
	i=0
	until SLURM_CONF=$conf sinfo -h -o %t 2>/dev/null | grep -qx idle; do
		i=$((i + 1))
		if [ $i -gt 100 ]; then
			echo "cluster.sh: the node did not come up:" >&2
			tail -5 "$dir/slurmctld.log" "$dir/slurmd.log" >&2
			exit 1
		fi
		sleep 0.2
	done
	;;
stop)
	for d in slurmd slurmctld; do
		[ -r "$dir/$d.pid" ] && kill "$(cat "$dir/$d.pid")" 2>/dev/null || true
	done
	;;
esac
