# a device that never ends is read up to the limit and refused
check /dev/zero
