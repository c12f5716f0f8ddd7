#!/bin/sh
# Doxygen's INPUT_FILTER for accel's headers: a `//` comment line becomes `///`, so the comment
# above each declaration is its documentation. Usage (by Doxygen): doxygen_comment_filter.sh FILE
exec sed -e 's|^\( *\)// |\1/// |' "$1"
