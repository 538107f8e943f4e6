#pragma once
// The text pieces of the Paje import (pajeparser.cpp): a line split into fields, numbers and
// times read in place without copies, and the string-keyed table the parser finds containers,
// entity values and open links in. Kept free of per-line allocations: the import reads tens of
// millions of lines (bench/import).

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rankscope::paje {

constexpr size_t kMaxFields = 32;

struct Fields
{
    std::array<std::string_view, kMaxFields> f;
    size_t n = 0;
};

/// Splits `s` at blanks and tabs; a field inside double quotes keeps its blanks (no escapes).
/// False when a quote is not closed. Fields past kMaxFields are dropped (user fields nobody
/// reads).
bool split(std::string_view s, Fields& out);

/// `s` as a whole as a number of type T; false when it is not one (or has more characters).
template <class T> bool number(std::string_view s, T& v)
{
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

/// `s` with every byte sequence that is not UTF-8 replaced by '?'; counts the replacements.
std::string validUtf8(std::string_view s, uint64_t& replaced);

/// A hash of the bytes of `s`, eight at a time; the last 1 to 7 bytes (most keys are that
/// short: aliases like "r61") by two overlapping loads, which with the length determine them.
inline uint64_t hashOf(std::string_view s)
{
    uint64_t h = 0x9E3779B97F4A7C15ull ^ s.size();
    const char* p = s.data();
    size_t n = s.size();
    for (; n >= 8; p += 8, n -= 8) {
        uint64_t w;
        std::memcpy(&w, p, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDull;
        h ^= h >> 32;
    }
    uint64_t w = 0; // an empty view's data may be null: nothing is loaded then
    if (n >= 4) {
        uint32_t a, b;
        std::memcpy(&a, p, 4);
        std::memcpy(&b, p + n - 4, 4);
        w = a | (uint64_t(b) << 32);
    } else if (n > 0) {
        w = uint64_t(uint8_t(p[0])) | uint64_t(uint8_t(p[n / 2])) << 8 |
            uint64_t(uint8_t(p[n - 1])) << 16;
    }
    h = (h ^ w) * 0xC4CEB9FE1A85EC53ull;
    return h ^ (h >> 29);
}

/// A table from strings to V by open addressing (linear probing, deletion by shifting back), so
/// finding, adding and removing a key allocates nothing once the table and its keys have grown:
/// the keys' strings are kept in their slots and reused.
template <class V> class StringTable
{
public:
    size_t size() const { return count_; }

    /// The value of `key`, or nullptr.
    V* find(std::string_view key) { return count_ == 0 ? nullptr : find(key, hashOf(key)); }

    /// The same with the key's hashOf computed already (by the tokenizing thread).
    V* find(std::string_view key, uint64_t h)
    {
        if (count_ == 0) return nullptr;
        for (size_t i = h & mask_;; i = (i + 1) & mask_) {
            Slot& s = slots_[i];
            if (!s.used) return nullptr;
            if (s.hash == h && s.key == key) return &s.value;
        }
    }

    /// The value of `key`, added (value-initialised) when absent; the flag says it was added.
    std::pair<V*, bool> insert(std::string_view key)
    {
        if ((count_ + 1) * 2 > slots_.size()) grow();
        const uint64_t h = hashOf(key);
        for (size_t i = h & mask_;; i = (i + 1) & mask_) {
            Slot& s = slots_[i];
            if (!s.used) {
                s.used = true;
                s.hash = h;
                s.key.assign(key);
                s.value = V();
                ++count_;
                return {&s.value, true};
            }
            if (s.hash == h && s.key == key) return {&s.value, false};
        }
    }

    /// Removes `key` when present.
    void erase(std::string_view key)
    {
        if (count_ == 0) return;
        const uint64_t h = hashOf(key);
        size_t i = h & mask_;
        for (;; i = (i + 1) & mask_) {
            if (!slots_[i].used) return;
            if (slots_[i].hash == h && slots_[i].key == key) break;
        }
        // Shift back the slots after it that would not be found past the hole.
        for (size_t j = (i + 1) & mask_; slots_[j].used; j = (j + 1) & mask_) {
            const size_t home = slots_[j].hash & mask_;
            const bool stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
            if (stays) continue;
            std::swap(slots_[i].key, slots_[j].key);
            slots_[i].hash = slots_[j].hash;
            slots_[i].value = std::move(slots_[j].value);
            i = j;
        }
        slots_[i].used = false;
        --count_;
    }

    /// Calls f(key, value) for every entry.
    template <class F> void forEach(F&& f) const
    {
        for (const Slot& s : slots_)
            if (s.used) f(std::string_view(s.key), s.value);
    }

private:
    struct Slot
    {
        uint64_t hash = 0;
        std::string key;
        V value{};
        bool used = false;
    };

    void grow()
    {
        std::vector<Slot> old(std::max<size_t>(64, slots_.size() * 2));
        old.swap(slots_);
        mask_ = slots_.size() - 1;
        for (Slot& s : old) {
            if (!s.used) continue;
            size_t i = s.hash & mask_;
            while (slots_[i].used)
                i = (i + 1) & mask_;
            slots_[i] = std::move(s);
        }
    }

    std::vector<Slot> slots_;
    size_t mask_ = 0;
    size_t count_ = 0;
};

} // namespace rankscope::paje
