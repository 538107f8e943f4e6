#pragma once
// An allocator for the replay's big per-rank and per-message arrays: blocks of 2 MiB and more
// are aligned to 2 MiB and offered to the kernel as transparent huge pages (Linux madvise).
//
// At a million ranks the replay touches these arrays in an order close to random; with 4 KiB
// pages nearly every such access also missed the TLB (measured: ~5 dTLB misses per transfer).
// Smaller blocks, and other systems, get plain operator new.

#include <cstddef>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace rankscope::netsim {

template <class T> struct HugePageAllocator
{
    using value_type = T;
    static constexpr size_t kHuge = size_t(2) << 20;

    HugePageAllocator() = default;
    template <class U> HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

    T* allocate(size_t n)
    {
        const size_t bytes = n * sizeof(T);
        if (bytes < kHuge) {
            // Over-aligned types (a cache-line inbox) need the aligned form even when small.
            if constexpr (alignof(T) > __STDCPP_DEFAULT_NEW_ALIGNMENT__)
                return static_cast<T*>(::operator new(bytes, std::align_val_t(alignof(T))));
            else
                return static_cast<T*>(::operator new(bytes));
        }
        const size_t rounded = (bytes + kHuge - 1) / kHuge * kHuge;
        void* p = ::operator new(rounded, std::align_val_t(kHuge));
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        madvise(p, rounded, MADV_HUGEPAGE); // advice only: failure just means small pages
#endif
        return static_cast<T*>(p);
    }
    void deallocate(T* p, size_t n) noexcept
    {
        const size_t bytes = n * sizeof(T);
        if (bytes >= kHuge)
            ::operator delete(p, std::align_val_t(kHuge));
        else if constexpr (alignof(T) > __STDCPP_DEFAULT_NEW_ALIGNMENT__)
            ::operator delete(p, std::align_val_t(alignof(T)));
        else
            ::operator delete(p);
    }
    template <class U> bool operator==(const HugePageAllocator<U>&) const noexcept
    {
        return true;
    }
};

} // namespace rankscope::netsim
