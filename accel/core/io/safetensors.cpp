// Reading and writing safetensors. The reader trusts nothing: header length, JSON, dtypes,
// shapes and offsets are checked against each other and the file size before any copy, so a
// corrupt or hostile file raises accel::Error naming the file and the problem.
#include "accel/core/io/safetensors.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>

#include "accel/core/factories.h"
#include "accel/core/io/atomic_file.h"
#include "accel/core/io/message_name.h"
#include "accel/core/io/read_file.h"

namespace accel::io {
namespace {

static_assert(std::endian::native == std::endian::little,
              "safetensors stores little-endian data; big-endian hosts need byte swaps");

constexpr const char* kSave = "save_safetensors";
constexpr const char* kLoad = "load_safetensors";
// The reference implementation's limit (MAX_HEADER_SIZE in Hugging Face's safetensors).
constexpr uint64_t kMaxHeaderBytes = 100'000'000;
// The file is read whole and its tensors are copied out of it, so a load peaks at twice the
// file's size: a larger file is refused before anything is read.
constexpr uint64_t kMaxFileBytes = uint64_t{64} << 30;
// More dimensions than any model's tensor has; bounds what one "shape" makes the reader keep.
constexpr size_t kMaxDims = 64;
constexpr const char* kMetadataKey = "__metadata__";

constexpr std::pair<ScalarType, std::string_view> kDtypeNames[] = {
    {kFloat32, "F32"}, {kFloat64, "F64"}, {kFloat16, "F16"}, {kBFloat16, "BF16"},
    {kInt64, "I64"},   {kInt32, "I32"},   {kUInt8, "U8"},    {kBool, "BOOL"},
};

std::string_view dtype_name(ScalarType dtype) {
  for (const auto& [type, name] : kDtypeNames) {
    if (type == dtype) return name;
  }
  fail(kSave, "unsupported dtype {}", dtype);
}

std::optional<ScalarType> dtype_from_name(std::string_view name) {
  for (const auto& [type, spelled] : kDtypeNames) {
    if (spelled == name) return type;
  }
  return std::nullopt;
}

// A tensor's header entry, checked but not yet copied.
struct Entry {
  std::string name;
  ScalarType dtype = kFloat32;
  std::vector<int64_t> shape;
  uint64_t begin = 0;
  uint64_t end = 0;
  unsigned fields = 0;  // which of the Field bits the entry has given
};

// The fields of an entry, as bits of Entry::fields; other keys are ignored, as the reference
// reader does.
enum Field : unsigned { kOtherField = 0, kDtype = 1, kShape = 2, kOffsets = 4 };
constexpr unsigned kAllFields = kDtype | kShape | kOffsets;

Field field_named(std::string_view key) {
  if (key == "dtype") return kDtype;
  if (key == "shape") return kShape;
  if (key == "data_offsets") return kOffsets;
  return kOtherField;
}

// The header's entries and metadata, built straight from the JSON parser's events rather than
// from a JSON tree: memory stays proportional to what is kept (a tree costs ~10x the text),
// a shape's rank is bounded, and a name given twice is seen (a JSON object keeps the last).
// Every problem throws accel::Error naming the source and the tensor.
class HeaderReader final : public nlohmann::json_sax<nlohmann::json> {
 public:
  explicit HeaderReader(const std::string& source) : source_(source) {}

  std::vector<Entry> entries;
  std::map<std::string, std::string> metadata;

  bool null() override { return expect(Value::kOther); }
  bool boolean(bool) override { return expect(Value::kOther); }
  bool number_integer(number_integer_t) override { return expect(Value::kOther); }
  bool number_float(number_float_t, const string_t&) override { return expect(Value::kOther); }
  bool binary(binary_t&) override { return expect(Value::kOther); }

  bool number_unsigned(number_unsigned_t value) override {
    expect(Value::kUnsigned);
    if (at_ == At::kShape) {
      std::vector<int64_t>& shape = entries.back().shape;
      if (value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        bad_entry(fmt::format("dimension {} of \"shape\" is {}, more than int64 holds",
                              shape.size(), value));
      }
      shape.push_back(static_cast<int64_t>(value));
    } else if (at_ == At::kOffsets) {
      (offsets_read_++ == 0 ? entries.back().begin : entries.back().end) = value;
    }
    return true;
  }

  bool string(string_t& value) override {
    expect(Value::kString);
    if (at_ == At::kFieldValue) {  // the dtype
      std::optional<ScalarType> dtype = dtype_from_name(value);
      if (!dtype) bad_entry("unknown or unsupported dtype " + quoted_for_message(value));
      entries.back().dtype = *dtype;
      at_ = At::kEntry;
    } else if (at_ == At::kMetadataValue) {
      metadata.emplace(std::move(metadata_key_), std::move(value));
      at_ = At::kMetadata;
    }
    return true;
  }

  bool start_object(std::size_t) override { return expect(Value::kObject); }
  bool start_array(std::size_t) override { return expect(Value::kArray); }

  bool key(string_t& key) override {
    switch (at_) {
      case At::kRoot:
        in_metadata_ = key == kMetadataKey;
        if (in_metadata_) {
          ACCEL_CHECK(!seen_metadata_, kLoad, "\"{}\": \"{}\" appears twice", source_,
                      kMetadataKey);
          seen_metadata_ = true;
        } else {
          entries.emplace_back().name = std::move(key);
        }
        at_ = At::kRootValue;
        break;
      case At::kEntry:
        field_ = field_named(key);
        if (field_ != kOtherField) {
          if (entries.back().fields & field_) bad_entry("\"" + key + "\" appears twice");
          entries.back().fields |= field_;
        }
        at_ = At::kFieldValue;
        break;
      case At::kMetadata:
        ACCEL_CHECK(!metadata.contains(key), kLoad, "\"{}\": metadata key {} appears twice",
                    source_, quoted_for_message(key));
        metadata_key_ = std::move(key);
        at_ = At::kMetadataValue;
        break;
      default:  // inside a skipped value
        break;
    }
    return true;
  }

  bool end_object() override {
    if (at_ == At::kSkip) return end_skipped();
    if (at_ == At::kEntry && entries.back().fields != kAllFields) {
      bad_entry("the entry needs \"dtype\", \"shape\" and \"data_offsets\"");
    }
    at_ = at_ == At::kRoot ? At::kEnd : At::kRoot;
    return true;
  }

  bool end_array() override {
    if (at_ == At::kSkip) return end_skipped();
    if (at_ == At::kOffsets && offsets_read_ != 2) bad_offsets();
    at_ = At::kEntry;
    return true;
  }

  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& error) override {
    // The parser's message quotes the last token read, which may be the whole header.
    fail(kLoad, "\"{}\": the header is not valid JSON (at byte {}: {})", source_, position,
         shortened_for_message(error.what()));
  }

 private:
  // Where in the header the parser is: what the next value must be.
  enum class At {
    kStart,          // the header itself: an object
    kRoot,           // in the header object: names
    kRootValue,      // after a name: a tensor's entry object, or the metadata object
    kEntry,          // in an entry: field names
    kFieldValue,     // after a field name: its value
    kShape,          // in "shape": dimensions
    kOffsets,        // in "data_offsets": two offsets
    kMetadata,       // in "__metadata__": keys
    kMetadataValue,  // after a metadata key: a string
    kSkip,           // in the value of a field this reader ignores
    kEnd,            // after the header object
  };
  enum class Value { kObject, kArray, kString, kUnsigned, kOther };

  // Checks that `value` (a scalar, or an object or array starting) may stand where the parser
  // is, and moves to where it leads; the caller keeps scalars.
  bool expect(Value value) {
    const bool container = value == Value::kObject || value == Value::kArray;
    switch (at_) {
      case At::kStart:
        ACCEL_CHECK(value == Value::kObject, kLoad, "\"{}\": the header is not a JSON object",
                    source_);
        at_ = At::kRoot;
        break;
      case At::kRootValue:
        if (value != Value::kObject) {
          ACCEL_CHECK(!in_metadata_, kLoad, "\"{}\": \"{}\" is not a JSON object", source_,
                      kMetadataKey);
          bad_entry("the entry is not a JSON object");
        }
        at_ = in_metadata_ ? At::kMetadata : At::kEntry;
        break;
      case At::kFieldValue:
        if (field_ == kDtype && value != Value::kString) bad_entry("\"dtype\" is not a string");
        if (field_ == kShape && value != Value::kArray) bad_entry("\"shape\" is not an array");
        if (field_ == kOffsets && value != Value::kArray) bad_offsets();
        if (field_ == kDtype) break;  // string() keeps it
        offsets_read_ = 0;
        skip_depth_ = 1;
        if (field_ == kShape) at_ = At::kShape;
        if (field_ == kOffsets) at_ = At::kOffsets;
        if (field_ == kOtherField) at_ = container ? At::kSkip : At::kEntry;
        break;
      case At::kShape:
        if (value != Value::kUnsigned) bad_entry("\"shape\" must hold non-negative integers");
        if (entries.back().shape.size() == kMaxDims) {
          bad_entry(fmt::format("\"shape\" has more than {} dimensions", kMaxDims));
        }
        break;
      case At::kOffsets:
        if (value != Value::kUnsigned || offsets_read_ == 2) bad_offsets();
        break;
      case At::kMetadataValue:
        ACCEL_CHECK(value == Value::kString, kLoad, "\"{}\": metadata {} is not a string", source_,
                    quoted_for_message(metadata_key_));
        break;
      case At::kSkip:
        if (container) ++skip_depth_;
        break;
      default:  // the parser gives only keys and ends here
        break;
    }
    return true;
  }

  bool end_skipped() {
    if (--skip_depth_ == 0) at_ = At::kEntry;
    return true;
  }

  [[noreturn]] void bad_entry(std::string_view why) const {
    fail(kLoad, "\"{}\": tensor {}: {}", source_, quoted_for_message(entries.back().name), why);
  }
  [[noreturn]] void bad_offsets() const {
    bad_entry("\"data_offsets\" must be two non-negative integers [begin, end]");
  }

  const std::string& source_;
  At at_ = At::kStart;
  Field field_ = kOtherField;
  bool in_metadata_ = false;
  bool seen_metadata_ = false;
  int offsets_read_ = 0;
  size_t skip_depth_ = 0;
  std::string metadata_key_;
};

// An entry's offsets against the data section and its dtype and shape, with every product
// checked for overflow: a bogus shape must not wrap around to a plausible size.
void check_extent(const Entry& entry, uint64_t data_size, const std::string& source) {
  const std::string name = quoted_for_message(entry.name);
  ACCEL_CHECK(entry.begin <= entry.end && entry.end <= data_size, kLoad,
              "\"{}\": tensor {}: data_offsets [{}, {}] outside the data section of {} bytes",
              source, name, entry.begin, entry.end, data_size);
  uint64_t bytes = static_cast<uint64_t>(element_size(entry.dtype));
  bool overflow = false;
  for (const int64_t size : entry.shape) {
    overflow |= __builtin_mul_overflow(bytes, static_cast<uint64_t>(size), &bytes);
  }
  ACCEL_CHECK(!overflow && bytes == entry.end - entry.begin, kLoad,
              "\"{}\": tensor {}: shape {} of {} needs {} bytes but data_offsets [{}, {}] span {}",
              source, name, entry.shape, dtype_name(entry.dtype),
              overflow ? std::string("too many") : std::to_string(bytes), entry.begin, entry.end,
              entry.end - entry.begin);
}

void check_unique_names(const std::vector<Entry>& entries, const std::string& source) {
  std::vector<const std::string*> names;
  names.reserve(entries.size());
  for (const Entry& entry : entries) names.push_back(&entry.name);
  std::sort(names.begin(), names.end(),
            [](const std::string* a, const std::string* b) { return *a < *b; });
  auto twice =
      std::adjacent_find(names.begin(), names.end(),
                         [](const std::string* a, const std::string* b) { return *a == *b; });
  ACCEL_CHECK(twice == names.end(), kLoad, "\"{}\": the tensor name {} appears twice", source,
              quoted_for_message(**twice));
}

Tensor copy_out(const Entry& entry, const char* data, const std::string& source) {
  const char* begin = data + entry.begin;
  size_t size = entry.end - entry.begin;
  if (entry.dtype == kBool) {
    // Any byte but 0 or 1 is not a valid bool.
    bool valid = std::all_of(begin, begin + size, [](char c) { return c == 0 || c == 1; });
    ACCEL_CHECK(valid, kLoad, "\"{}\": tensor {}: BOOL data holds bytes other than 0 and 1", source,
                quoted_for_message(entry.name));
  }
  Tensor out;
  try {
    out = empty(entry.shape, entry.dtype);  // rejects shapes no tensor can have
  } catch (const Error& error) {
    fail(kLoad, "\"{}\": tensor {}: {}", source, quoted_for_message(entry.name), error.what());
  }
  if (size > 0) std::memcpy(out.data_ptr(), begin, size);
  return out;
}

}  // namespace

std::string serialize_safetensors(const NamedTensors& tensors,
                                  const std::map<std::string, std::string>& metadata) {
  nlohmann::ordered_json header = nlohmann::ordered_json::object();
  if (!metadata.empty()) header[kMetadataKey] = metadata;
  std::vector<Tensor> contiguous;
  uint64_t offset = 0;
  for (const auto& [name, tensor] : tensors) {
    ACCEL_CHECK(name != kMetadataKey, kSave, "\"{}\" is reserved and cannot name a tensor",
                kMetadataKey);
    ACCEL_CHECK(!header.contains(name), kSave, "the name {} appears twice",
                quoted_for_message(name));
    ACCEL_CHECK(tensor.defined(), kSave, "tensor {} is undefined", quoted_for_message(name));
    Tensor data = tensor.detach().cpu().contiguous();
    uint64_t bytes = static_cast<uint64_t>(data.nbytes());
    header[name] = {{"dtype", dtype_name(data.dtype())},
                    {"shape", std::vector<int64_t>(data.sizes().begin(), data.sizes().end())},
                    {"data_offsets", {offset, offset + bytes}}};
    offset += bytes;
    contiguous.push_back(std::move(data));
  }
  std::string json = header.dump();
  // Spaces pad the header so the data starts 8-byte aligned, as the reference writer does.
  json.append((8 - json.size() % 8) % 8, ' ');
  std::string out(8, '\0');
  uint64_t length = json.size();
  std::memcpy(out.data(), &length, 8);
  out += json;
  out.reserve(out.size() + offset);
  for (const Tensor& data : contiguous) {
    if (data.nbytes() > 0) out.append(static_cast<const char*>(data.data_ptr()), data.nbytes());
  }
  return out;
}

SafetensorsContents parse_safetensors(std::string_view bytes, const std::string& source) {
  ACCEL_CHECK(bytes.size() >= 8, kLoad, "\"{}\": {} bytes is too short for a safetensors file",
              source, bytes.size());
  uint64_t header_size = 0;
  std::memcpy(&header_size, bytes.data(), 8);
  ACCEL_CHECK(header_size <= kMaxHeaderBytes, kLoad,
              "\"{}\": header length {} exceeds the {}-byte limit (corrupt or not safetensors)",
              source, header_size, kMaxHeaderBytes);
  ACCEL_CHECK(header_size <= bytes.size() - 8, kLoad,
              "\"{}\": header length {} is larger than the {} bytes after it (truncated file?)",
              source, header_size, bytes.size() - 8);
  const std::string_view header = bytes.substr(8, header_size);
  HeaderReader reader(source);
  nlohmann::json::sax_parse(header.begin(), header.end(), &reader);
  std::vector<Entry>& entries = reader.entries;
  check_unique_names(entries, source);

  const std::string_view data = bytes.substr(8 + header_size);
  for (const Entry& entry : entries) check_extent(entry, data.size(), source);
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
  for (size_t i = 1; i < entries.size(); ++i) {
    const Entry& prev = entries[i - 1];
    ACCEL_CHECK(entries[i].begin >= prev.end, kLoad,
                "\"{}\": the data of tensors {} [{}, {}] and {} [{}, {}] overlap", source,
                quoted_for_message(prev.name), prev.begin, prev.end,
                quoted_for_message(entries[i].name), entries[i].begin, entries[i].end);
  }
  SafetensorsContents out;
  out.metadata = std::move(reader.metadata);
  out.tensors.reserve(entries.size());
  for (Entry& entry : entries) {
    Tensor tensor = copy_out(entry, data.data(), source);
    out.tensors.emplace_back(std::move(entry.name), std::move(tensor));
  }
  return out;
}

void save_safetensors(const std::string& path, const NamedTensors& tensors,
                      const std::map<std::string, std::string>& metadata) {
  std::string bytes = serialize_safetensors(tensors, metadata);
  AtomicFileWriter file(path);
  file.write(bytes.data(), bytes.size());
  file.commit();
}

SafetensorsContents load_safetensors(const std::string& path) {
  return parse_safetensors(read_file(path, kLoad, kMaxFileBytes), path);
}

}  // namespace accel::io
