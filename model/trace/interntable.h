#pragma once
// A table of distinct values with small dense indices, for the payloads of raw event records.
//
// Design note: while a trace is built, an event that carries more than its 28-bit reference
// (a message's partner, communicator, tag and size; a collective's operation, root and sizes)
// stores an index into its location's InternTable. Programs repeat the same few payloads over
// and over (the same neighbours, tags and sizes every iteration), so the table stays tiny where
// one record per event would cost more than the event itself. When a location's payloads turn
// out to be mostly distinct (more than one new value in four lookups after the first 1024
// values), the table stops looking values up and simply appends them: no hash table, and never
// much more than a plain vector of records would cost.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rankscope {

template <class T, class Hash> class InternTable
{
public:
    static constexpr uint32_t kEmpty = 0xFFFFFFFFu;

    /// The index of `v`, added if new. Indices count from 0 in order of first appearance.
    uint32_t intern(const T& v)
    {
        if (!dedup_) return append(v);
        ++lookups_;
        if (slots_.empty()) slots_.assign(16, kEmpty);
        size_t mask = slots_.size() - 1;
        size_t h = Hash{}(v)&mask;
        for (uint32_t s; (s = slots_[h]) != kEmpty; h = (h + 1) & mask)
            if (values_[s] == v) return s;
        if (values_.size() >= kMinValuesBeforeGivingUp && values_.size() * 4 > lookups_) {
            std::vector<uint32_t>().swap(slots_);
            dedup_ = false;
            return append(v);
        }
        const uint32_t index = append(v);
        slots_[h] = index;
        if (values_.size() * 2 > slots_.size()) rehash(slots_.size() * 2);
        return index;
    }

    size_t size() const { return values_.size(); }
    bool empty() const { return values_.empty(); }
    const T& operator[](size_t i) const { return values_[i]; }
    T& operator[](size_t i) { return values_[i]; }
    const std::vector<T>& values() const { return values_; }

    /// Frees everything.
    void clear()
    {
        std::vector<T>().swap(values_);
        std::vector<uint32_t>().swap(slots_);
        lookups_ = 0;
        dedup_ = true;
    }

private:
    static constexpr size_t kMinValuesBeforeGivingUp = 1024;

    uint32_t append(const T& v)
    {
        values_.push_back(v);
        return static_cast<uint32_t>(values_.size() - 1);
    }

    void rehash(size_t capacity)
    {
        slots_.assign(capacity, kEmpty);
        const size_t mask = capacity - 1;
        for (uint32_t i = 0; i < values_.size(); ++i) {
            size_t h = Hash{}(values_[i]) & mask;
            while (slots_[h] != kEmpty)
                h = (h + 1) & mask;
            slots_[h] = i;
        }
    }

    std::vector<T> values_;
    std::vector<uint32_t> slots_; ///< open addressing, linear probing; at most half full
    uint64_t lookups_ = 0;
    bool dedup_ = true;
};

/// Mixes 64 bits into a well-spread hash (the finaliser of MurmurHash3's 64-bit variant).
inline uint64_t mixHash(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

} // namespace rankscope
