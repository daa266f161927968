// SPDX-License-Identifier: Apache-2.0
// The NVTX registry's hash index and the UTF-8 cut: keys per record kind, growth, renamed
// categories, a full arena, and cuts around every kind of multi-byte character.
#include "capture/nvtx/nvtx_name_table.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "capture/nvtx/nvtx_text.h"

namespace gsys::capture {
namespace {

using format::RecordKind;

bool Put(NvtxNameTable& t, RecordKind kind, uint64_t id, uint32_t domain, const std::string& s) {
  format::NvtxNameBody b{0, id, domain, static_cast<uint32_t>(s.size())};
  format::RecordHeader h{static_cast<uint16_t>(kind),
                         static_cast<uint16_t>(format::RecordSize(sizeof(b), s.size())), 1};
  return t.Put(h, b, s.data());
}

// The id of the kept record with the key, or 0.
uint64_t Find(const NvtxNameTable& t, RecordKind kind, uint32_t domain, uint64_t id,
              const std::string& s, std::string* text = nullptr) {
  const char* stored = nullptr;
  const format::NvtxNameBody* b = t.Find(kind, domain, id, s.data(), s.size(), &stored);
  if (b == nullptr) return 0;
  if (text != nullptr) *text = std::string(stored, b->text_len);
  return b->id;
}

TEST(NvtxNameTableTest, DomainsByNameAtAnyCountAcrossGrowth) {
  NvtxNameTable t;
  ASSERT_TRUE(t.Init(8u << 20));
  constexpr int kN = 150000;  // the index grows from 4096 slots to 512 Ki
  for (int i = 1; i <= kN; ++i) {
    ASSERT_TRUE(Put(t, RecordKind::kNvtxDomainCreate, i, i, "d" + std::to_string(i)));
  }
  EXPECT_EQ(t.entries(), size_t{kN});
  for (int i = 1; i <= kN; ++i) {
    // The domain's own id is in its record's `domain` field; lookups ignore it.
    ASSERT_EQ(Find(t, RecordKind::kNvtxDomainCreate, 0, 0, "d" + std::to_string(i)), uint64_t(i));
  }
  EXPECT_EQ(Find(t, RecordKind::kNvtxDomainCreate, 0, 0, "d0"), 0u);
  EXPECT_EQ(Find(t, RecordKind::kNvtxDomainCreate, 0, 0, ""), 0u);
  EXPECT_EQ(Find(t, RecordKind::kNvtxRegisterString, 1, 0, "d1"), 0u) << "kinds are apart";
  t.Release();
}

TEST(NvtxNameTableTest, StringsAreKeyedByDomainAndCategoriesByIdWithTheLatestName) {
  NvtxNameTable t;
  ASSERT_TRUE(t.Init(1u << 20));
  ASSERT_TRUE(Put(t, RecordKind::kNvtxRegisterString, 1, 0, "x"));
  ASSERT_TRUE(Put(t, RecordKind::kNvtxRegisterString, 2, 7, "x"));
  ASSERT_TRUE(Put(t, RecordKind::kNvtxRegisterString, 3, 7, ""));
  EXPECT_EQ(Find(t, RecordKind::kNvtxRegisterString, 0, 0, "x"), 1u);
  EXPECT_EQ(Find(t, RecordKind::kNvtxRegisterString, 7, 0, "x"), 2u);
  EXPECT_EQ(Find(t, RecordKind::kNvtxRegisterString, 7, 0, ""), 3u);
  EXPECT_EQ(Find(t, RecordKind::kNvtxRegisterString, 8, 0, "x"), 0u);

  ASSERT_TRUE(Put(t, RecordKind::kNvtxNameCategory, 5, 7, "first"));
  ASSERT_TRUE(Put(t, RecordKind::kNvtxNameCategory, 5, 7, "second"));
  std::string text;
  EXPECT_EQ(Find(t, RecordKind::kNvtxNameCategory, 7, 5, "anything", &text), 5u);
  EXPECT_EQ(text, "second");
  EXPECT_EQ(Find(t, RecordKind::kNvtxNameCategory, 7, 6, "second"), 0u);
  EXPECT_EQ(Find(t, RecordKind::kNvtxNameCategory, 0, 5, "second"), 0u);
  EXPECT_EQ(t.entries(), 4u) << "the renamed category replaced its entry";
  // The arena keeps both category records, in order (a forked child replays the latest
  // last): 40 + 40 + 32 + 40 + 40 bytes (8 header + 24 body + text, 8-aligned).
  EXPECT_EQ(t.used(), 192u);
  t.Release();
}

TEST(NvtxNameTableTest, AFullArenaKeepsNothingMoreAndEveryLookupStillEnds) {
  NvtxNameTable t;
  ASSERT_TRUE(t.Init(64 * 1024));  // 2048 records of 32 bytes at most
  int kept = 0;
  for (int i = 0; i < 5000; ++i) {
    if (Put(t, RecordKind::kNvtxDomainCreate, i + 1, i + 1, std::to_string(i))) ++kept;
  }
  EXPECT_GT(kept, 1000);
  EXPECT_LT(kept, 5000);
  EXPECT_LE(t.used(), size_t{64 * 1024});
  for (int i = 0; i < 5000; ++i) {
    uint64_t id = Find(t, RecordKind::kNvtxDomainCreate, 0, 0, std::to_string(i));
    ASSERT_EQ(id, i < kept ? uint64_t(i + 1) : 0u) << i;
  }
  t.Release();
  NvtxNameTable none;  // never initialized (mmap failed): misses, keeps nothing
  EXPECT_EQ(Find(none, RecordKind::kNvtxDomainCreate, 0, 0, "a"), 0u);
  EXPECT_FALSE(Put(none, RecordKind::kNvtxDomainCreate, 1, 1, "a"));
}

std::string Cut(const std::string& s, size_t cap) {
  bool cut = false;
  size_t n = NvtxTextLength(s.c_str(), cap, &cut);
  EXPECT_EQ(cut, s.size() > cap) << s;
  return s.substr(0, n);
}

TEST(NvtxTextTest, CutsBetweenUtf8Characters) {
  EXPECT_EQ(Cut("abcdef", 6), "abcdef");
  EXPECT_EQ(Cut("abcdefg", 6), "abcdef");
  EXPECT_EQ(Cut("abcd\xc3\xa9", 6), "abcd\xc3\xa9") << "fits exactly";
  EXPECT_EQ(Cut("abcde\xc3\xa9!", 6), "abcde") << "2-byte char across the cap";
  EXPECT_EQ(Cut("abcd\xe2\x82\xac!", 6), "abcd") << "3-byte, 2 bytes in";
  EXPECT_EQ(Cut("abcde\xe2\x82\xac", 6), "abcde") << "3-byte, 1 byte in";
  EXPECT_EQ(Cut("abc\xf0\x9f\x98\x80", 6), "abc") << "4-byte, 3 bytes in";
  EXPECT_EQ(Cut("ab\xf0\x9f\x98\x80x", 6), "ab\xf0\x9f\x98\x80") << "4-byte, ends at the cap";
  // Invalid input has no character to keep whole: cut at the cap.
  EXPECT_EQ(Cut("abcde\x80\x80\x80\x80", 6), "abcde\x80");
  EXPECT_EQ(Cut("\x80\x80\x80\x80\x80\x80\x80", 6), "\x80\x80\x80\x80\x80\x80");
  EXPECT_EQ(Cut("abcdeA\x80", 6), "abcdeA") << "stray continuation after ASCII";
  std::string big(format::kMaxTextBytes - 1, 'a');
  EXPECT_EQ(Cut(big + "\xc3\xa9" + std::string(1 << 20, 'z'), format::kMaxTextBytes), big);
}

TEST(NvtxTextTest, WideStringsBecomeValidUtf8WithinTheCap) {
  char out[8];
  bool cut = false;
  const wchar_t mixed[] = {L'a', 0xE9, 0x20AC, 0x1F600, 0};
  EXPECT_EQ(WideToUtf8(mixed, out, sizeof(out), &cut), 6u);  // a é €; 😀 does not fit
  EXPECT_STREQ(out, "a\xc3\xa9\xe2\x82\xac");
  EXPECT_TRUE(cut);
  char big[32];
  EXPECT_EQ(WideToUtf8(mixed, big, sizeof(big), &cut), 10u);
  EXPECT_FALSE(cut);
  const wchar_t odd[] = {static_cast<wchar_t>(0xD800), static_cast<wchar_t>(0x110000),
                         static_cast<wchar_t>(-1), 0};
  EXPECT_EQ(WideToUtf8(odd, big, sizeof(big), &cut), 9u);
  EXPECT_STREQ(big, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd") << "U+FFFD for non-characters";
  char one[1];
  EXPECT_EQ(WideToUtf8(mixed, one, sizeof(one), &cut), 0u);
  EXPECT_TRUE(cut);
  EXPECT_EQ(one[0], '\0');
}

}  // namespace
}  // namespace gsys::capture
