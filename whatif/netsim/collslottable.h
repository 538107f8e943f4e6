#pragma once
// Where the engine keeps a collective message between its two ends: (instance, round, sender)
// -> message slot, from the first end that names it until the second takes it.
//
// Design note: both ends know the receiving rank, so each rank has an inbox (one cache line,
// three entries) that both look in. The engine fetches a rank's own inbox ahead together with
// its state (the event queue knows which rank runs next), so the receiving end rarely misses
// the cache, where a lookup in one big hash table missed at random on both ends (at a million
// ranks a third of the replay's cache misses). A receiver with more messages pending (a linear
// gather's root, a rank far behind its partners) spills into a hash table: open addressing
// with linear probing and backward-shift deletion, nothing allocated per entry.

#include "whatif/netsim/hugepageallocator.h"

#include <cstdint>
#include <vector>

namespace rankscope::netsim {

class CollSlotTable
{
public:
    /// Receivers are world ranks below `ranks`.
    void setReceivers(uint32_t ranks) { inboxes_.assign(ranks, Inbox{}); }
    /// Takes the slot stored for the key (removing it) and returns true, or stores `slot` for
    /// it and returns false.
    bool takeOrPut(uint32_t receiver, uint32_t instance, uint32_t round, uint32_t sender,
                   uint32_t& slot)
    {
        // One pass over the inbox: the entry of the key, else the first free one.
        Inbox& box = inboxes_[receiver];
        Entry* free = nullptr;
        for (Entry& e : box.entries) {
            if (e.slot == kEmpty) {
                if (!free) free = &e;
            } else if (e.round == round && e.sender == sender && e.instance == instance) {
                slot = e.slot;
                e.slot = kEmpty;
                return true;
            }
        }
        if (box.spilled || !free)
            return takeOrPutSpilled(box, Entry{instance, round, sender, slot}, free, slot);
        *free = Entry{instance, round, sender, slot};
        return false;
    }

    /// Starts fetching `receiver`'s inbox.
    void prefetch(uint32_t receiver) const
    {
        if (receiver < inboxes_.size()) __builtin_prefetch(&inboxes_[receiver]);
    }

private:
    static constexpr uint32_t kEmpty = 0xFFFFFFFFu;
    struct Entry
    {
        uint32_t instance = 0, round = 0, sender = 0, slot = kEmpty;
    };
    struct alignas(64) Inbox
    {
        uint32_t spilled = 0; // entries of this receiver in the hash table
        Entry entries[3];
    };

    /// takeOrPut() when the receiver has entries in the hash table or a full inbox (rare:
    /// kept out of line so that the common case stays small enough to inline).
    [[gnu::noinline]] bool takeOrPutSpilled(Inbox& box, const Entry& key, Entry* free,
                                            uint32_t& slot)
    {
        if (box.spilled && take(key.instance, key.round, key.sender, slot)) {
            --box.spilled;
            return true;
        }
        if (free) {
            *free = key;
            return false;
        }
        put(key);
        ++box.spilled;
        return false;
    }

    size_t home(uint32_t instance, uint32_t round, uint32_t sender) const
    {
        const uint64_t h = (uint64_t(instance) * 0x9E3779B97F4A7C15ull) ^
                           (uint64_t(round) * 0xC2B2AE3D27D4EB4Full) ^
                           (uint64_t(sender) * 0x165667B19E3779F9ull);
        return size_t((h ^ (h >> 29)) * 0xBF58476D1CE4E5B9ull >> shift_);
    }
    bool take(uint32_t instance, uint32_t round, uint32_t sender, uint32_t& slot)
    {
        if (table_.empty()) return false;
        const size_t mask = table_.size() - 1;
        for (size_t i = home(instance, round, sender);; i = (i + 1) & mask) {
            const Entry& e = table_[i];
            if (e.slot == kEmpty) return false;
            if (e.instance == instance && e.round == round && e.sender == sender) {
                slot = e.slot;
                erase(i);
                return true;
            }
        }
    }
    void put(const Entry& entry)
    {
        if (2 * (size_ + 1) > table_.size()) grow();
        const size_t mask = table_.size() - 1;
        size_t i = home(entry.instance, entry.round, entry.sender);
        while (table_[i].slot != kEmpty)
            i = (i + 1) & mask;
        table_[i] = entry;
        ++size_;
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
        std::vector<Entry, HugePageAllocator<Entry>> old;
        old.swap(table_);
        table_.assign(old.empty() ? 1024 : 2 * old.size(), Entry{});
        shift_ = 64;
        for (size_t n = table_.size(); n > 1; n /= 2)
            --shift_;
        size_ = 0;
        for (const Entry& e : old)
            if (e.slot != kEmpty) put(e);
    }

    std::vector<Inbox, HugePageAllocator<Inbox>> inboxes_;
    std::vector<Entry, HugePageAllocator<Entry>> table_;
    size_t size_ = 0;
    unsigned shift_ = 64;
};

} // namespace rankscope::netsim
