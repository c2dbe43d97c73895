#!/bin/sh
# nfsd-work.sh up|work|down -- the kernel tier's tapset_nfsd test: an
# NFSv4 server and its client on the guest's loopback, without nfs-utils.
#
#   up    loads nfsd and the NFS client (nfsd-kmods.tar, from kmod-pack),
#         starts one nfsd thread for NFSv4 only, and exports a tmpfs as
#         the NFSv4 root by writing the three caches mountd would fill
#         (client address -> domain, fsid 0 -> path, path -> options)
#   work  mounts it and makes the server create, write, commit, look up,
#         read, rename and remove, then unmounts
#   down  undoes up, whatever state up or work left
#
# The loopback is up already (mkinitramfs's /init).  NFSv4 only: v3
# needs lockd and rpcbind registrations (and a MOUNT server for the
# client), v4 needs neither.  The grace period is the shortest the server
# takes (10 s): an OPEN that creates waits it out (NFS4ERR_GRACE, retried
# by the client).  The export's flags are
# rw,insecure,no_root_squash,no_subtree_check,fsid=0 (NFSEXP_INSECURE_PORT
# 0x2 | NFSEXP_NOSUBTREECHECK 0x400 | NFSEXP_FSID 0x2000 = 9218).
set -u
exp=$PWD/exp mnt=$PWD/mnt kmod=$PWD/kmod
forever=2147483647	# cache entries' expiry (seconds since 1970)

case $1 in
up)
	mkdir -p "$kmod" "$exp" "$mnt" /proc/fs/nfsd
	tar -C "$kmod" -xf /tap/files/nfsd-kmods.tar || exit 1
	while read -r m; do
		insmod "$kmod/$m.ko" || exit 1
	done < "$kmod/order"
	mount -t nfsd nfsd /proc/fs/nfsd || exit 1
	mount -t tmpfs tmpfs "$exp" || exit 1
	echo hello > "$exp/old"
	echo "-3 +4" > /proc/fs/nfsd/versions || exit 1
	echo 10 > /proc/fs/nfsd/nfsv4leasetime || exit 1
	echo 10 > /proc/fs/nfsd/nfsv4gracetime || exit 1
	echo 1 > /proc/fs/nfsd/threads || exit 1
	printf '%s\n' "nfsd 127.0.0.1 $forever tapdom" \
		> /proc/net/rpc/auth.unix.ip/channel || exit 1
	printf '%s\n' "tapdom 1 \\x00000000 $forever $exp" \
		> /proc/net/rpc/nfsd.fh/channel || exit 1
	printf '%s\n' "tapdom $exp $forever 9218 65534 65534 0" \
		> /proc/net/rpc/nfsd.export/channel || exit 1
	;;
work)
	mount -t nfs4 -o vers=4.2,addr=127.0.0.1,clientaddr=127.0.0.1 \
		127.0.0.1:/ "$mnt" || exit 1
	mkdir "$mnt/dir"
	echo "some data" > "$mnt/dir/new"
	# more than one WRITE's worth, so that they are UNSTABLE and the
	# fsync COMMITs
	dd if=/dev/zero of="$mnt/dir/big" bs=64k count=5 conv=fsync 2> /dev/null
	echo 3 > /proc/sys/vm/drop_caches
	cat "$mnt/old"
	mv "$mnt/dir/new" "$mnt/dir/renamed_file"
	rm "$mnt/dir/renamed_file"
	ls "$mnt/nosuchfile" 2> /dev/null
	umount "$mnt"
	;;
down)
	umount "$mnt" 2> /dev/null
	[ -e /proc/fs/nfsd/threads ] && echo 0 > /proc/fs/nfsd/threads
	umount /proc/fs/nfsd 2> /dev/null
	umount "$exp" 2> /dev/null
	[ -e "$kmod/order" ] && for m in $(tac "$kmod/order"); do
		! grep -q "^$m " /proc/modules || rmmod "$m"
	done
	;;
esac
