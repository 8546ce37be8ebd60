#!/usr/bin/perl -ln
# The throughput averager of seed 004 (BigScience "Magic scripts"), verbatim:
#   find . -type f -name "*out" -exec perl -lne '<this body>' {} \; | sort | grep -v fail
# Averages "elapsed time per iteration (ms)" over a log and prints "FILE SECONDS" (truncated to
# whole seconds), or "FILE fail" when the log has no iteration line.
m|elapsed time per iteration .ms.: ([\d\.]+)| &&  do {$x+=$1; $c++}; END { print "$ARGV " . ($c ? int($x/$c/1000) : "fail")}
