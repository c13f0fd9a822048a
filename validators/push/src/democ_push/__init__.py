"""democ push: take a democ build's switch configs to the switches through NAPALM.

A dry run by default (load the candidate, print the device's diff, discard it);
`--commit` commits with a confirm timer where the driver has one, checks the device
afterwards (it answers; its LLDP neighbours match the build's cabling) and confirms only
then, rolling back on any failure. One JSON report per device. See validators/README.md.
"""
