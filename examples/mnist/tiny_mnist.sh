# Sourced by the example's tests: write_tiny_mnist DIR TRAIN_COUNT TEST_COUNT writes an
# MNIST-format dataset of 28x28 images with a repeating pixel pattern and labels cycling 0..9.

# A big-endian 32-bit integer as raw bytes.
be32() { printf "\\x$(printf %02x $(($1 >> 24 & 255)))\\x$(printf %02x $(($1 >> 16 & 255)))"; \
         printf "\\x$(printf %02x $(($1 >> 8 & 255)))\\x$(printf %02x $(($1 & 255)))"; }
write_idx_split() {  # write_idx_split DIR PREFIX COUNT
  local dir=$1 prefix=$2 count=$3
  { printf '\x00\x00\x08\x03'; be32 "$count"; be32 28; be32 28
    head -c $((count * 784)) < <(yes $'\x10\x80\xff\x40'); } >"$dir/$prefix-images-idx3-ubyte"
  { printf '\x00\x00\x08\x01'; be32 "$count"
    for ((i = 0; i < count; ++i)); do printf "\\x0$((i % 10))"; done; } \
    >"$dir/$prefix-labels-idx1-ubyte"
}
write_tiny_mnist() {
  mkdir -p "$1"
  write_idx_split "$1" train "$2"
  write_idx_split "$1" t10k "$3"
}
