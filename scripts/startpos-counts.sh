# Sourced by scripts/deep.sh and scripts/deep-units.sh: what both check a deep count against.

# perft of the start position (OEIS A048987).
declare -A expected=([1]=20 [2]=400 [3]=8902 [4]=197281 [5]=4865609 [6]=119060324 [7]=3195901860
    [8]=84998978956 [9]=2439530234167 [10]=69352859712417 [11]=2097651003696806
    [12]=62854969236701747 [13]=1981066775000396239)

# The total nodes of a `run` or `merge` JSON report.
report_nodes() {
    sed -n 's/^  "nodes": "\{0,1\}\([0-9]*\)"\{0,1\},$/\1/p' "$1" | head -1
}
