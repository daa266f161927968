// SPDX-License-Identifier: Apache-2.0
#include "report/kineto/trace_handler.h"

#include <unordered_map>

#include "report/kineto/number_text.h"

namespace gsys::report::kineto {
namespace {

enum class ArgKey {
  kExternalId,
  kCorrelation,
  kDevice,
  kContext,
  kStream,
  kRegisters,
  kSharedMem,
  kBytes,
  kEventId,
  kSyncKind,
  kCopyKind,
  kName,
  kLabels,
  kSortIndex,
  kCollective,
  kDtype,
  kInNelems,
  kOutNelems,
  kGroupSize,
  kInSplit,
  kOutSplit,
  kPgName,
  kPgDesc,
  kPgRanks,
  kRankStart,
  kRankStride
};

const std::unordered_map<std::string_view, ArgKey>& ArgKeys() {
  static const auto* keys = new std::unordered_map<std::string_view, ArgKey>{
      {"External id", ArgKey::kExternalId},
      {"correlation", ArgKey::kCorrelation},
      {"device", ArgKey::kDevice},
      {"context", ArgKey::kContext},
      {"stream", ArgKey::kStream},
      {"registers per thread", ArgKey::kRegisters},
      {"shared memory", ArgKey::kSharedMem},
      {"bytes", ArgKey::kBytes},
      {"wait_on_cuda_event_id", ArgKey::kEventId},
      {"cuda_sync_kind", ArgKey::kSyncKind},
      {"kind", ArgKey::kCopyKind},
      {"name", ArgKey::kName},
      {"labels", ArgKey::kLabels},
      {"sort_index", ArgKey::kSortIndex},
      {"Collective name", ArgKey::kCollective},
      {"dtype", ArgKey::kDtype},
      {"In msg nelems", ArgKey::kInNelems},
      {"Out msg nelems", ArgKey::kOutNelems},
      {"Group size", ArgKey::kGroupSize},
      {"In split size", ArgKey::kInSplit},
      {"Out split size", ArgKey::kOutSplit},
      {"Process Group Name", ArgKey::kPgName},
      {"Process Group Description", ArgKey::kPgDesc},
      {"Process Group Ranks", ArgKey::kPgRanks},
      {"Global rank start", ArgKey::kRankStart},
      {"Global rank stride", ArgKey::kRankStride},
  };
  return *keys;
}

// An integer from a number, or from a string holding one ("2560"): torch writes some both ways.
std::optional<int64_t> IntOf(std::string_view text) { return ParseIntText(text); }

}  // namespace

std::string TraceHandler::Bounded(std::string_view text) {
  if (text.size() <= kMaxString) return std::string(text);
  ++truncated_strings_;
  size_t n = kMaxString;
  // Cut between UTF-8 characters: back off over continuation bytes.
  while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
  return std::string(text.substr(0, n));
}

bool TraceHandler::Key(const char* s, unsigned len, bool) {
  key_.assign(s, len < 4096 ? len : 4096);
  return true;
}

bool TraceHandler::Open(bool object) {
  Ctx parent = stack_.empty() ? Ctx::kRoot : stack_.back().ctx;
  Ctx child = Ctx::kSkip;
  switch (parent) {
    case Ctx::kRoot:
      // A trace is an object; the older Chrome form is a bare array of events.
      child = object ? Ctx::kTop : Ctx::kEvents;
      break;
    case Ctx::kTop:
      if (key_ == "traceEvents" && !object) child = Ctx::kEvents;
      if (key_ == "deviceProperties" && !object) child = Ctx::kDevices;
      if (key_ == "distributedInfo" && object) child = Ctx::kDist;
      break;
    case Ctx::kEvents:
      if (object) {
        child = Ctx::kEvent;
        event_.Clear();
      } else {
        ++non_object_events_;
      }
      break;
    case Ctx::kEvent:
      if (key_ == "args" && object) {
        child = Ctx::kArgs;
      } else if (key_ == "ts" || key_ == "dur" || key_ == "pid" || key_ == "tid" ||
                 key_ == "name" || key_ == "ph" || key_ == "cat") {
        event_.bad_field = true;
      }
      break;
    case Ctx::kArgs:
      if (!object && (key_ == "grid" || key_ == "block")) {
        child = Ctx::kArgDims;
        dims_target_ = key_ == "grid" ? 1 : 2;
        dims_n_ = 0;
      }
      break;
    case Ctx::kDevices:
      if (object) {
        child = Ctx::kDevice;
        device_ = DeviceProperties();
      }
      break;
    default:
      break;
  }
  if (child == Ctx::kEvents) saw_trace_events_ = true;
  if (child == Ctx::kDist) dist_ = DistributedInfo();
  if (stack_.size() >= kMaxDepth) {
    error_ = "JSON nested deeper than " + std::to_string(kMaxDepth) + " levels";
    return false;
  }
  stack_.push_back({child, object});
  return true;
}

bool TraceHandler::Close() {
  if (stack_.empty()) return false;
  Ctx ctx = stack_.back().ctx;
  stack_.pop_back();
  switch (ctx) {
    case Ctx::kEvent:
      return sink_->OnEvent(event_);
    case Ctx::kArgDims:
      if (dims_target_ == 1) event_.args.grid_n = dims_n_;
      if (dims_target_ == 2) event_.args.block_n = dims_n_;
      return true;
    case Ctx::kDevice:
      sink_->OnDevice(device_);
      return true;
    case Ctx::kDist:
      sink_->OnDistributed(dist_);
      return true;
    default:
      return true;
  }
}

bool TraceHandler::Scalar(Value type, std::string_view text) {
  if (stack_.empty()) {
    error_ = "not a trace (the JSON is not an object)";
    return false;
  }
  switch (stack_.back().ctx) {
    case Ctx::kTop:
      if (type == Value::kString || type == Value::kNumber || type == Value::kBool) {
        sink_->OnTopScalar(key_, Bounded(text.substr(0, 4096)));
      }
      return true;
    case Ctx::kEvents:
      ++non_object_events_;
      return true;
    case Ctx::kEvent:
      EventField(type, text);
      return true;
    case Ctx::kArgs:
      ArgField(type, text);
      return true;
    case Ctx::kArgDims: {
      auto v = type == Value::kNumber ? IntOf(text) : std::nullopt;
      if (dims_n_ < 3 && v) {
        (dims_target_ == 1 ? event_.args.grid : event_.args.block)[dims_n_] = *v;
      }
      ++dims_n_;
      return true;
    }
    case Ctx::kDevice:
      if (key_ == "name" && type == Value::kString) {
        device_.name = Bounded(text.substr(0, 4096));
      } else if (type == Value::kNumber) {
        auto v = IntOf(text);
        if (!v) return true;
        if (key_ == "id") {
          device_.id = v;
        } else if (device_.ints.size() < 64) {
          device_.ints[key_] = *v;
        }
      }
      return true;
    case Ctx::kDist:
      if (type == Value::kNumber) {
        if (key_ == "rank") dist_.rank = IntOf(text);
        if (key_ == "world_size") dist_.world_size = IntOf(text);
        if (key_ == "pg_count") dist_.pg_count = IntOf(text);
      } else if (type == Value::kString) {
        if (key_ == "backend") dist_.backend = Bounded(text.substr(0, 256));
        if (key_ == "nccl_version") dist_.nccl_version = Bounded(text.substr(0, 256));
      }
      return true;
    default:
      return true;
  }
}

void TraceHandler::TrackField(TrackId* id, Value type, std::string_view text) {
  id->present = true;
  if (type == Value::kNumber) {
    auto v = IntOf(text);
    if (v) {
      id->numeric = true;
      id->number = *v;
    } else {
      event_.bad_field = true;
    }
  } else if (type == Value::kString) {
    // Kineto writes its own tracks as strings; a string of digits is still that number.
    auto v = IntOf(text);
    id->numeric = v.has_value();
    id->number = v.value_or(0);
    id->text = Bounded(text.substr(0, 4096));
  } else {
    event_.bad_field = true;
  }
}

void TraceHandler::EventField(Value type, std::string_view text) {
  const std::string& k = key_;
  if (k == "ph") {
    if (type == Value::kString && !text.empty()) {
      event_.ph = text[0];
    } else {
      event_.bad_field = true;
    }
  } else if (k == "cat") {
    if (type == Value::kString) event_.cat = Bounded(text);
  } else if (k == "name") {
    if (type == Value::kString || type == Value::kNumber) {
      event_.name = Bounded(text);
    } else if (type != Value::kNull) {
      event_.bad_field = true;
    }
  } else if (k == "pid") {
    TrackField(&event_.pid, type, text);
  } else if (k == "tid") {
    TrackField(&event_.tid, type, text);
  } else if (k == "ts" || k == "dur") {
    std::optional<int64_t> ns;
    if (type == Value::kNumber || type == Value::kString) ns = MicrosTextToNanos(text);
    if (!ns) event_.bad_field = true;
    (k == "ts" ? event_.ts_ns : event_.dur_ns) = ns;
  }
}

void TraceHandler::ArgField(Value type, std::string_view text) {
  const auto& keys = ArgKeys();
  auto it = keys.find(std::string_view(key_));
  if (it == keys.end()) return;
  EventArgs& a = event_.args;
  CollectiveArgs& c = a.collective;
  bool num = type == Value::kNumber || type == Value::kString;
  std::optional<int64_t> v = num ? IntOf(text) : std::nullopt;
  auto str = [&]() { return Bounded(text.substr(0, 65536)); };
  switch (it->second) {
    case ArgKey::kExternalId:
      a.external_id = v;
      break;
    case ArgKey::kCorrelation:
      a.correlation = v;
      break;
    case ArgKey::kDevice:
      a.device = v;
      break;
    case ArgKey::kContext:
      a.context = v;
      break;
    case ArgKey::kStream:
      a.stream = v;
      break;
    case ArgKey::kRegisters:
      a.registers = v;
      break;
    case ArgKey::kSharedMem:
      a.shared_mem = v;
      break;
    case ArgKey::kBytes:
      a.bytes = v;
      break;
    case ArgKey::kEventId:
      a.event_id = v;
      break;
    case ArgKey::kSortIndex:
      a.sort_index = v;
      break;
    case ArgKey::kSyncKind:
      if (type == Value::kString) a.sync_kind = str();
      break;
    case ArgKey::kCopyKind:
      if (type == Value::kString) a.copy_kind = str();
      break;
    case ArgKey::kName:
      if (type == Value::kString) a.meta_name = str();
      break;
    case ArgKey::kLabels:
      if (type == Value::kString) a.labels = str();
      break;
    case ArgKey::kCollective:
      if (type == Value::kString) c.name = str();
      break;
    case ArgKey::kDtype:
      if (type == Value::kString) c.dtype = str();
      break;
    case ArgKey::kInNelems:
      c.in_nelems = v;
      break;
    case ArgKey::kOutNelems:
      c.out_nelems = v;
      break;
    case ArgKey::kGroupSize:
      c.group_size = v;
      break;
    case ArgKey::kRankStart:
      c.rank_start = v;
      break;
    case ArgKey::kRankStride:
      c.rank_stride = v;
      break;
    case ArgKey::kInSplit:
      if (num) c.in_split = str();
      break;
    case ArgKey::kOutSplit:
      if (num) c.out_split = str();
      break;
    case ArgKey::kPgName:
      if (num) c.pg_name = str();
      break;
    case ArgKey::kPgDesc:
      if (num) c.pg_desc = str();
      break;
    case ArgKey::kPgRanks:
      if (num) c.pg_ranks = str();
      break;
  }
}

}  // namespace gsys::report::kineto
