#pragma once
// Where the engine keeps a collective message between its two ends: (instance, round, sender)
// -> message slot, from the first end that names it until the second takes it.
//
// Open addressing with linear probing and backward-shift deletion: a lookup touches one or two
// cache lines and nothing is allocated per entry. At a million ranks a node-based hash map
// spent most of the replay's time here.

#include <cstdint>
#include <vector>

namespace rankscope::netsim {

class CollSlotTable
{
public:
    /// Takes the slot stored for the key (removing it) and returns true, or stores `slot` for
    /// it and returns false.
    bool takeOrPut(uint32_t instance, uint32_t round, uint32_t sender, uint32_t& slot)
    {
        if (2 * (size_ + 1) > table_.size()) grow();
        const size_t mask = table_.size() - 1;
        for (size_t i = home(instance, round, sender);; i = (i + 1) & mask) {
            Entry& e = table_[i];
            if (e.slot == kEmpty) {
                e = Entry{instance, round, sender, slot};
                ++size_;
                return false;
            }
            if (e.instance == instance && e.round == round && e.sender == sender) {
                slot = e.slot;
                erase(i);
                return true;
            }
        }
    }

private:
    static constexpr uint32_t kEmpty = 0xFFFFFFFFu;
    struct Entry
    {
        uint32_t instance = 0, round = 0, sender = 0, slot = kEmpty;
    };

    size_t home(uint32_t instance, uint32_t round, uint32_t sender) const
    {
        const uint64_t h = (uint64_t(instance) * 0x9E3779B97F4A7C15ull) ^
                           (uint64_t(round) * 0xC2B2AE3D27D4EB4Full) ^
                           (uint64_t(sender) * 0x165667B19E3779F9ull);
        return size_t((h ^ (h >> 29)) * 0xBF58476D1CE4E5B9ull >> shift_);
    }
    void erase(size_t i)
    {
        // Move later entries of the run back so every entry stays reachable from its home.
        const size_t mask = table_.size() - 1;
        for (size_t j = (i + 1) & mask; table_[j].slot != kEmpty; j = (j + 1) & mask) {
            const Entry& e = table_[j];
            const size_t k = home(e.instance, e.round, e.sender);
            if (((j - k) & mask) >= ((j - i) & mask)) {
                table_[i] = e;
                i = j;
            }
        }
        table_[i].slot = kEmpty;
        --size_;
    }
    void grow()
    {
        std::vector<Entry> old;
        old.swap(table_);
        table_.assign(old.empty() ? 1024 : 2 * old.size(), Entry{});
        shift_ = 64;
        for (size_t n = table_.size(); n > 1; n /= 2)
            --shift_;
        size_ = 0;
        const size_t mask = table_.size() - 1;
        for (const Entry& e : old) {
            if (e.slot == kEmpty) continue;
            size_t i = home(e.instance, e.round, e.sender);
            while (table_[i].slot != kEmpty)
                i = (i + 1) & mask;
            table_[i] = e;
            ++size_;
        }
    }

    std::vector<Entry> table_;
    size_t size_ = 0;
    unsigned shift_ = 64;
};

} // namespace rankscope::netsim
