#!/bin/sh
# ensure-deb.sh PACKAGE FILE: make sure Debian package PACKAGE is installed,
# judged by FILE existing. Installs it with apt-get when run as root;
# otherwise prints the exact command and fails.
set -eu
pkg=$1
file=$2
[ -e "$file" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "installing $pkg (needs $file)..." >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null
	apt-get install -y -qq "$pkg" >/dev/null
	[ -e "$file" ] && exit 0
	echo "error: installed $pkg but $file is still missing" >&2
	exit 1
fi
echo "error: $file is missing; install it with:" >&2
echo "    sudo apt-get install -y $pkg" >&2
exit 1
