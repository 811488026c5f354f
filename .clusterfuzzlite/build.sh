#!/bin/bash -eu
# ClusterFuzzLite build: the same script OSS-Fuzz runs, so that both build the targets one way.
exec "$SRC/carillon-nse/TestAssets/Fuzz/oss-fuzz/build.sh"
