// SPDX-License-Identifier: Apache-2.0
#include "capture/stack/cfi_unwind.h"

#include <cstring>

extern "C" {
// libgcc's FDE lookup (exported by libgcc_s and libgcc_eh; not declared in <unwind.h>).
struct dwarf_eh_bases {
  void* tbase;
  void* dbase;
  void* func;
};
const void* _Unwind_Find_FDE(void* pc, struct dwarf_eh_bases* bases);
}

namespace gsys::capture {
namespace {

#if defined(__x86_64__)

constexpr int kRegBp = 6;  // DWARF register numbers (x86-64 psABI)
constexpr int kRegSp = 7;
constexpr int kNumRegs = 17;  // 0..16, 16 = return address column
constexpr int kMaxRemember = 8;

enum class RuleKind : uint8_t { kSame, kUndefined, kOffset, kValOffset, kOther };

struct Rule {
  RuleKind kind;
  int64_t offset;
};

struct Row {
  int cfa_reg;
  int64_t cfa_offset;
  bool cfa_expression;
  Rule rules[kNumRegs];
};

// Bounds-checked reader over one CIE or FDE.
class Reader {
 public:
  Reader(const uint8_t* p, const uint8_t* end) : p_(p), end_(end) {}
  bool ok() const { return ok_; }
  bool more() const { return ok_ && p_ < end_; }
  const uint8_t* pos() const { return p_; }
  void Seek(const uint8_t* p) {
    ok_ = ok_ && p >= p_ && p <= end_;
    p_ = p;
  }
  template <typename T>
  T Fixed() {
    T v{};
    if (!ok_ || static_cast<size_t>(end_ - p_) < sizeof(T)) {
      ok_ = false;
      return v;
    }
    std::memcpy(&v, p_, sizeof(T));
    p_ += sizeof(T);
    return v;
  }
  uint64_t Uleb() {
    uint64_t v = 0;
    for (int shift = 0; ok_; shift += 7) {
      uint8_t b = Fixed<uint8_t>();
      if (shift < 64) v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) break;
    }
    return v;
  }
  int64_t Sleb() {
    int64_t v = 0;
    int shift = 0;
    uint8_t b = 0;
    do {
      b = Fixed<uint8_t>();
      if (shift < 64) v |= static_cast<int64_t>(static_cast<uint64_t>(b & 0x7f) << shift);
      shift += 7;
    } while (ok_ && (b & 0x80) != 0);
    if (shift < 64 && (b & 0x40) != 0) v |= -(static_cast<int64_t>(1) << shift);
    return v;
  }
  void Skip(uint64_t n) {
    if (!ok_ || n > static_cast<uint64_t>(end_ - p_)) {
      ok_ = false;
      return;
    }
    p_ += n;
  }
  // A DW_EH_PE-encoded value; pc-relative and function-relative applied, never dereferenced.
  uint64_t Encoded(uint8_t enc, uint64_t func) {
    if (enc == 0xff) return 0;  // DW_EH_PE_omit
    uint64_t field = reinterpret_cast<uint64_t>(p_);
    uint64_t v = 0;
    switch (enc & 0x0f) {
      case 0x00:
        v = Fixed<uint64_t>();
        break;
      case 0x01:
        v = Uleb();
        break;
      case 0x02:
        v = Fixed<uint16_t>();
        break;
      case 0x03:
        v = Fixed<uint32_t>();
        break;
      case 0x04:
        v = Fixed<uint64_t>();
        break;
      case 0x09:
        v = static_cast<uint64_t>(Sleb());
        break;
      case 0x0a:
        v = static_cast<uint64_t>(static_cast<int64_t>(Fixed<int16_t>()));
        break;
      case 0x0b:
        v = static_cast<uint64_t>(static_cast<int64_t>(Fixed<int32_t>()));
        break;
      case 0x0c:
        v = Fixed<uint64_t>();
        break;
      default:
        ok_ = false;
        return 0;
    }
    switch (enc & 0x70) {
      case 0x00:
        break;
      case 0x10:
        v += field;
        break;
      case 0x40:
        v += func;
        break;
      default:
        break;  // text/data-relative: only ever skipped here
    }
    return v;
  }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
  bool ok_ = true;
};

struct Cie {
  uint64_t code_align;
  int64_t data_align;
  uint64_t ra_reg;
  uint8_t fde_enc;
  bool signal_frame;
  bool has_augmentation_data;  // 'z': FDEs carry an augmentation length too
  const uint8_t* insns;
  const uint8_t* end;
};

bool ParseCie(const uint8_t* cie, Cie* out) {
  uint32_t len = 0;
  std::memcpy(&len, cie, 4);
  if (len == 0 || len == 0xffffffffu) return false;
  Reader r(cie + 4, cie + 4 + len);
  if (r.Fixed<uint32_t>() != 0) return false;  // CIE id
  uint8_t version = r.Fixed<uint8_t>();
  const char* aug = reinterpret_cast<const char*>(r.pos());
  size_t aug_len = strnlen(aug, 16);
  if (aug_len == 16) return false;
  r.Skip(aug_len + 1);
  if (std::strstr(aug, "eh") != nullptr) return false;
  out->code_align = r.Uleb();
  out->data_align = r.Sleb();
  out->ra_reg = version == 1 ? r.Fixed<uint8_t>() : r.Uleb();
  out->fde_enc = 0;
  out->signal_frame = false;
  out->has_augmentation_data = aug[0] == 'z';
  if (aug[0] == 'z') {
    uint64_t n = r.Uleb();
    const uint8_t* data_end = r.pos() + n;
    for (const char* a = aug + 1; *a != '\0' && r.ok(); ++a) {
      if (*a == 'R') {
        out->fde_enc = r.Fixed<uint8_t>();
      } else if (*a == 'P') {
        r.Encoded(r.Fixed<uint8_t>() & 0x7f, 0);
      } else if (*a == 'L') {
        r.Fixed<uint8_t>();
      } else if (*a == 'S') {
        out->signal_frame = true;
      } else if (*a != 'B') {
        break;
      }
    }
    r.Seek(data_end);
  }
  out->insns = r.pos();
  out->end = cie + 4 + len;
  return r.ok() && out->ra_reg < kNumRegs;
}

void SetRule(Row* row, uint64_t reg, RuleKind kind, int64_t offset) {
  if (reg < kNumRegs) row->rules[reg] = Rule{kind, offset};
}

// DW_CFA ops that set a register's rule (offset, restore, undefined, same value, register,
// expression, val_offset); false when `op` is none of them.
bool RegisterOp(uint8_t op, Reader& r, const Cie& cie, const Row& initial, Row* row) {
  const int64_t da = cie.data_align;
  uint64_t g = 0;
  switch (op) {
    case 0x05:  // offset_extended
      g = r.Uleb();
      SetRule(row, g, RuleKind::kOffset, static_cast<int64_t>(r.Uleb()) * da);
      return true;
    case 0x06:  // restore_extended
      g = r.Uleb();
      if (g < kNumRegs) row->rules[g] = initial.rules[g];
      return true;
    case 0x07:
      SetRule(row, r.Uleb(), RuleKind::kUndefined, 0);
      return true;
    case 0x08:
      SetRule(row, r.Uleb(), RuleKind::kSame, 0);
      return true;
    case 0x09:  // register: held in another register (not followed)
      g = r.Uleb();
      r.Uleb();
      SetRule(row, g, RuleKind::kOther, 0);
      return true;
    case 0x10:  // expression, val_expression (not evaluated)
    case 0x16:
      g = r.Uleb();
      r.Skip(r.Uleb());
      SetRule(row, g, RuleKind::kOther, 0);
      return true;
    case 0x11:  // offset_extended_sf
      g = r.Uleb();
      SetRule(row, g, RuleKind::kOffset, r.Sleb() * da);
      return true;
    case 0x14:  // val_offset
      g = r.Uleb();
      SetRule(row, g, RuleKind::kValOffset, static_cast<int64_t>(r.Uleb()) * da);
      return true;
    case 0x15:  // val_offset_sf
      g = r.Uleb();
      SetRule(row, g, RuleKind::kValOffset, r.Sleb() * da);
      return true;
    case 0x2f:  // GNU_negative_offset_extended
      g = r.Uleb();
      SetRule(row, g, RuleKind::kOffset, -static_cast<int64_t>(r.Uleb()) * da);
      return true;
    default:
      return false;
  }
}

// DW_CFA ops that define the CFA; false when `op` is none of them.
bool CfaOp(uint8_t op, Reader& r, const Cie& cie, Row* row) {
  switch (op) {
    case 0x0c:  // def_cfa
      row->cfa_reg = static_cast<int>(r.Uleb());
      row->cfa_offset = static_cast<int64_t>(r.Uleb());
      row->cfa_expression = false;
      return true;
    case 0x0d:  // def_cfa_register
      row->cfa_reg = static_cast<int>(r.Uleb());
      row->cfa_expression = false;
      return true;
    case 0x0e:
      row->cfa_offset = static_cast<int64_t>(r.Uleb());
      return true;
    case 0x0f:  // def_cfa_expression (not evaluated: the walk stops at such a frame)
      r.Skip(r.Uleb());
      row->cfa_expression = true;
      return true;
    case 0x12:  // def_cfa_sf
      row->cfa_reg = static_cast<int>(r.Uleb());
      row->cfa_offset = r.Sleb() * cie.data_align;
      row->cfa_expression = false;
      return true;
    case 0x13:
      row->cfa_offset = r.Sleb() * cie.data_align;
      return true;
    case 0x2e:
      r.Uleb();
      return true;  // GNU_args_size
    default:
      return false;
  }
}

// Runs CFA instructions [insns, end) from `loc` until the row that covers `target`.
bool Execute(const uint8_t* insns, const uint8_t* end, const Cie& cie, const Row& initial,
             uint64_t loc, uint64_t target, uint64_t func, Row* row) {
  Reader r(insns, end);
  Row saved[kMaxRemember];
  int depth = 0;
  while (r.more()) {
    uint8_t op = r.Fixed<uint8_t>();
    uint64_t advance = 0;
    if ((op & 0xc0) == 0x40) {  // advance_loc
      advance = (op & 0x3f) * cie.code_align;
    } else if ((op & 0xc0) == 0x80) {  // offset
      SetRule(row, op & 0x3f, RuleKind::kOffset, static_cast<int64_t>(r.Uleb()) * cie.data_align);
      continue;
    } else if ((op & 0xc0) == 0xc0) {  // restore
      if ((op & 0x3f) < kNumRegs) row->rules[op & 0x3f] = initial.rules[op & 0x3f];
      continue;
    } else if (op == 0x01) {  // set_loc
      uint64_t to = r.Encoded(cie.fde_enc, func);
      if (to > target) return r.ok();
      loc = to;
      continue;
    } else if (op >= 0x02 && op <= 0x04) {  // advance_loc1/2/4
      advance = (op == 0x02   ? r.Fixed<uint8_t>()
                 : op == 0x03 ? r.Fixed<uint16_t>()
                              : r.Fixed<uint32_t>()) *
                cie.code_align;
    } else if (op == 0x0a) {  // remember_state
      if (depth == kMaxRemember) return false;
      saved[depth++] = *row;
      continue;
    } else if (op == 0x0b) {  // restore_state
      if (depth == 0) return false;
      *row = saved[--depth];
      continue;
    } else if (op == 0x00 || RegisterOp(op, r, cie, initial, row) || CfaOp(op, r, cie, row)) {
      continue;
    } else {
      return false;  // an op this walker does not know
    }
    if (loc + advance > target) return r.ok();
    loc += advance;
  }
  return r.ok();
}

// The CFI row of the frame whose lookup address is `pc`.
bool FindRow(uint64_t pc, Row* row, uint64_t* ra_reg) {
  dwarf_eh_bases bases{};
  const auto* fde =
      static_cast<const uint8_t*>(_Unwind_Find_FDE(reinterpret_cast<void*>(pc), &bases));
  if (fde == nullptr) return false;
  uint32_t len = 0, cie_off = 0;
  std::memcpy(&len, fde, 4);
  if (len == 0 || len == 0xffffffffu) return false;
  std::memcpy(&cie_off, fde + 4, 4);
  Cie cie{};
  if (!ParseCie(fde + 4 - cie_off, &cie) || cie.signal_frame) return false;
  uint64_t func = reinterpret_cast<uint64_t>(bases.func);
  Reader r(fde + 8, fde + 4 + len);
  r.Encoded(static_cast<uint8_t>(cie.fde_enc & 0x0f), 0);  // pc_begin (bases.func has it)
  r.Encoded(static_cast<uint8_t>(cie.fde_enc & 0x0f), 0);  // pc_range
  if (cie.has_augmentation_data) r.Skip(r.Uleb());
  if (!r.ok()) return false;
  Row initial{};
  initial.cfa_reg = -1;
  if (!Execute(cie.insns, cie.end, cie, initial, func, ~0ull, func, &initial)) return false;
  *row = initial;
  if (!Execute(r.pos(), fde + 4 + len, cie, initial, func, pc, func, row)) return false;
  *ra_reg = cie.ra_reg;
  return true;
}

class StackCopy {
 public:
  StackCopy(uint64_t base, const uint8_t* bytes, size_t len)
      : base_(base), bytes_(bytes), len_(len) {}
  bool Read(uint64_t addr, uint64_t* v) const {
    if (addr < base_ || addr - base_ > len_ || len_ - (addr - base_) < 8) return false;
    std::memcpy(v, bytes_ + (addr - base_), 8);
    return true;
  }

 private:
  uint64_t base_;
  const uint8_t* bytes_;
  size_t len_;
};

#endif  // __x86_64__

}  // namespace

bool CfiUnwindSupported() {
#if defined(__x86_64__)
  return true;
#else
  return false;
#endif
}

int UnwindCopiedStack(const UnwindRegs& regs, const uint8_t* stack, size_t stack_len, uint64_t* out,
                      int max) {
  if (max <= 0) return 0;
  out[0] = regs.ip;
  int n = 1;
#if defined(__x86_64__)
  StackCopy mem(regs.sp, stack, stack_len);
  uint64_t ip = regs.ip, sp = regs.sp, bp = regs.bp;
  bool bp_known = true;
  while (n < max) {
    Row row{};
    uint64_t ra_reg = 0;
    // A caller's ip is a return address: look up the call instruction before it.
    if (!FindRow(n == 1 ? ip : ip - 1, &row, &ra_reg) || row.cfa_expression) break;
    uint64_t base = 0;
    if (row.cfa_reg == kRegSp) {
      base = sp;
    } else if (row.cfa_reg == kRegBp && bp_known) {
      base = bp;
    } else {
      break;
    }
    uint64_t cfa = base + static_cast<uint64_t>(row.cfa_offset);
    const Rule& ra = row.rules[ra_reg];
    uint64_t next_ip = 0;
    if (cfa <= sp || ra.kind != RuleKind::kOffset ||
        !mem.Read(cfa + static_cast<uint64_t>(ra.offset), &next_ip) || next_ip == 0) {
      break;
    }
    const Rule& rb = row.rules[kRegBp];
    if (rb.kind == RuleKind::kOffset) {
      bp_known = mem.Read(cfa + static_cast<uint64_t>(rb.offset), &bp);
    } else if (rb.kind == RuleKind::kValOffset) {
      bp = cfa + static_cast<uint64_t>(rb.offset);
    } else if (rb.kind != RuleKind::kSame) {
      bp_known = false;
    }
    sp = cfa;
    ip = next_ip;
    out[n++] = ip;
  }
#else
  (void)regs;
  (void)stack;
  (void)stack_len;
#endif
  return n;
}

}  // namespace gsys::capture
