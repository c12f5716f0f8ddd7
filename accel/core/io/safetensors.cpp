// Reading and writing safetensors. The reader trusts nothing: header length, JSON, dtypes,
// shapes and offsets are checked against each other and the file size before any copy, so a
// corrupt or hostile file raises accel::Error naming the file and the problem.
#include "accel/core/io/safetensors.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "accel/core/factories.h"
#include "accel/core/io/atomic_file.h"

namespace accel::io {
namespace {

static_assert(std::endian::native == std::endian::little,
              "safetensors stores little-endian data; big-endian hosts need byte swaps");

constexpr const char* kSave = "save_safetensors";
constexpr const char* kLoad = "load_safetensors";
constexpr uint64_t kMaxHeaderBytes = 100'000'000;
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
  ScalarType dtype;
  std::vector<int64_t> shape;
  uint64_t begin;
  uint64_t end;
};

Entry parse_entry(const std::string& name, const nlohmann::json& value, uint64_t data_size,
                  const std::string& source) {
  auto bad = [&](std::string_view why) -> Entry {
    fail(kLoad, "\"{}\": tensor \"{}\": {}", source, name, why);
  };
  if (!value.is_object()) return bad("the entry is not a JSON object");
  auto dtype_it = value.find("dtype");
  auto shape_it = value.find("shape");
  auto offsets_it = value.find("data_offsets");
  if (dtype_it == value.end() || shape_it == value.end() || offsets_it == value.end()) {
    return bad("the entry needs \"dtype\", \"shape\" and \"data_offsets\"");
  }
  if (!dtype_it->is_string()) return bad("\"dtype\" is not a string");
  std::optional<ScalarType> dtype = dtype_from_name(dtype_it->get_ref<const std::string&>());
  if (!dtype) {
    fail(kLoad, "\"{}\": tensor \"{}\": unknown or unsupported dtype \"{}\"", source, name,
         dtype_it->get_ref<const std::string&>());
  }
  if (!shape_it->is_array()) return bad("\"shape\" is not an array");
  Entry entry{name, *dtype, {}, 0, 0};
  // The byte count, with overflow checks: a bogus shape must not wrap around.
  uint64_t bytes = static_cast<uint64_t>(element_size(*dtype));
  bool overflow = false;
  for (const nlohmann::json& dim : *shape_it) {
    if (!dim.is_number_unsigned()) return bad("\"shape\" must hold non-negative integers");
    uint64_t size = dim.get<uint64_t>();
    if (size > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) overflow = true;
    if (size != 0 && bytes > std::numeric_limits<uint64_t>::max() / size) overflow = true;
    bytes *= size;
    entry.shape.push_back(static_cast<int64_t>(size));
  }
  if (!offsets_it->is_array() || offsets_it->size() != 2 ||
      !(*offsets_it)[0].is_number_unsigned() || !(*offsets_it)[1].is_number_unsigned()) {
    return bad("\"data_offsets\" must be two non-negative integers [begin, end]");
  }
  entry.begin = (*offsets_it)[0].get<uint64_t>();
  entry.end = (*offsets_it)[1].get<uint64_t>();
  if (entry.begin > entry.end || entry.end > data_size) {
    fail(kLoad, "\"{}\": tensor \"{}\": data_offsets [{}, {}] outside the data section of {} bytes",
         source, name, entry.begin, entry.end, data_size);
  }
  if (overflow || bytes != entry.end - entry.begin) {
    fail(kLoad,
         "\"{}\": tensor \"{}\": shape {} of {} needs {} bytes but data_offsets [{}, {}] "
         "span {}",
         source, name, entry.shape, dtype_it->get_ref<const std::string&>(),
         overflow ? std::string("too many") : std::to_string(bytes), entry.begin, entry.end,
         entry.end - entry.begin);
  }
  return entry;
}

std::map<std::string, std::string> parse_metadata(const nlohmann::json& value,
                                                  const std::string& source) {
  ACCEL_CHECK(value.is_object(), kLoad, "\"{}\": \"__metadata__\" is not a JSON object", source);
  std::map<std::string, std::string> out;
  for (const auto& [key, item] : value.items()) {
    ACCEL_CHECK(item.is_string(), kLoad, "\"{}\": metadata \"{}\" is not a string", source, key);
    out.emplace(key, item.get<std::string>());
  }
  return out;
}

Tensor copy_out(const Entry& entry, const char* data, const std::string& source) {
  const char* begin = data + entry.begin;
  size_t size = entry.end - entry.begin;
  if (entry.dtype == kBool) {
    // Any byte but 0 or 1 is not a valid bool.
    bool valid = std::all_of(begin, begin + size, [](char c) { return c == 0 || c == 1; });
    ACCEL_CHECK(valid, kLoad, "\"{}\": tensor \"{}\": BOOL data holds bytes other than 0 and 1",
                source, entry.name);
  }
  Tensor out = empty(entry.shape, entry.dtype);
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
    ACCEL_CHECK(!header.contains(name), kSave, "the name \"{}\" appears twice", name);
    ACCEL_CHECK(tensor.defined(), kSave, "tensor \"{}\" is undefined", name);
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
  nlohmann::json header = nlohmann::json::parse(bytes.substr(8, header_size), nullptr, false);
  ACCEL_CHECK(!header.is_discarded(), kLoad, "\"{}\": the header is not valid JSON", source);
  ACCEL_CHECK(header.is_object(), kLoad, "\"{}\": the header is not a JSON object", source);

  std::string_view data = bytes.substr(8 + header_size);
  SafetensorsContents out;
  std::vector<Entry> entries;
  for (const auto& [name, value] : header.items()) {
    if (name == kMetadataKey) {
      out.metadata = parse_metadata(value, source);
    } else {
      entries.push_back(parse_entry(name, value, data.size(), source));
    }
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
  for (size_t i = 1; i < entries.size(); ++i) {
    const Entry& prev = entries[i - 1];
    ACCEL_CHECK(entries[i].begin >= prev.end, kLoad,
                "\"{}\": the data of tensors \"{}\" [{}, {}] and \"{}\" [{}, {}] overlap", source,
                prev.name, prev.begin, prev.end, entries[i].name, entries[i].begin, entries[i].end);
  }
  for (const Entry& entry : entries) {
    out.tensors.emplace_back(entry.name, copy_out(entry, data.data(), source));
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
  std::ifstream file(path, std::ios::binary);
  ACCEL_CHECK(file.is_open(), kLoad, "cannot open \"{}\"", path);
  std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  ACCEL_CHECK(!file.bad(), kLoad, "error reading \"{}\"", path);
  return parse_safetensors(bytes, path);
}

}  // namespace accel::io
