#pragma once
// Flat byte encoding: fixed-width values in host (little-endian) order, strings and lists as a
// 64-bit length + items. Used by the messages between processes of rankscope-mpi (same binary at
// both ends) and inside the sections of the result summary file (importers/rsum, which adds the
// versioning). Reading is bounds-checked: a length beyond the bytes left throws, before anything
// is allocated, so damaged input cannot ask for huge buffers.

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace rankscope {

class ByteWriter
{
public:
    explicit ByteWriter(std::vector<char>& out) : out_(out) {}

    template <class T> void put(const T& v)
    {
        static_assert(std::is_trivially_copyable_v<T>);
        const size_t at = out_.size();
        out_.resize(at + sizeof v);
        std::memcpy(out_.data() + at, &v, sizeof v);
    }
    void putString(const std::string& s)
    {
        put<uint64_t>(s.size());
        out_.insert(out_.end(), s.begin(), s.end());
    }
    template <class T> void putList(const std::vector<T>& items)
    {
        static_assert(std::is_trivially_copyable_v<T>);
        put<uint64_t>(items.size());
        const size_t at = out_.size();
        out_.resize(at + items.size() * sizeof(T));
        if (!items.empty()) std::memcpy(out_.data() + at, items.data(), items.size() * sizeof(T));
    }

    /// A count, then each item written by `put` (field by field: struct padding must not be
    /// written, its bytes are whatever memory held).
    template <class T, class Put> void putRecords(const std::vector<T>& items, Put put)
    {
        this->put<uint64_t>(items.size());
        for (const T& item : items)
            put(item);
    }

private:
    std::vector<char>& out_;
};

class ByteReader
{
public:
    ByteReader(const char* bytes, size_t size) : p_(bytes), end_(bytes + size) {}

    bool atEnd() const { return p_ == end_; }
    size_t left() const { return size_t(end_ - p_); }
    template <class T> T get()
    {
        static_assert(std::is_trivially_copyable_v<T>);
        T v;
        need(sizeof v);
        std::memcpy(&v, p_, sizeof v);
        p_ += sizeof v;
        return v;
    }
    std::string getString()
    {
        const uint64_t n = get<uint64_t>();
        need(n);
        std::string s(p_, n);
        p_ += n;
        return s;
    }
    template <class T> std::vector<T> getList()
    {
        const uint64_t n = get<uint64_t>();
        if (n > uint64_t(end_ - p_) / sizeof(T)) need(uint64_t(end_ - p_) + 1);
        std::vector<T> items(n);
        if (n > 0) std::memcpy(items.data(), p_, n * sizeof(T));
        p_ += n * sizeof(T);
        return items;
    }

    /// A count, then each item read by `get`; an item takes at least `minBytes` (so a damaged
    /// count is refused before anything is allocated).
    template <class T, class Get> std::vector<T> getRecords(size_t minBytes, Get get)
    {
        const auto n = this->get<uint64_t>();
        if (n > left() / minBytes) need(left() + 1);
        std::vector<T> items(n);
        for (T& item : items)
            item = get();
        return items;
    }

private:
    void need(uint64_t n) const
    {
        if (n > uint64_t(end_ - p_)) throw std::runtime_error("the data end early (truncated)");
    }
    const char* p_;
    const char* end_;
};

} // namespace rankscope
