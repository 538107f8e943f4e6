#pragma once
// Deterministic random numbers for the trace generator.
//
// std::mt19937_64 is specified bit for bit by the C++ standard, but the std:: distributions are
// not (libstdc++ and libc++ differ), so the distributions are derived here with plain integer
// arithmetic: the same seed gives the same trace with every compiler and standard library.

#include <cstdint>
#include <random>

namespace rankscope {

class GeneratorRandom
{
public:
    explicit GeneratorRandom(uint64_t seed) : engine_(mix(seed)) {}

    /// Uniform in [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
    /// Uniform in [-1, 1).
    double symmetric() { return 2.0 * uniform() - 1.0; }
    /// Approximately standard normal: the Irwin-Hall sum of four 16-bit uniforms, centred and
    /// scaled to unit variance. Bounded to +-2*sqrt(3), so a relative noise never produces the
    /// absurd tails a true normal would; one engine call per sample.
    double normal()
    {
        const uint64_t x = engine_();
        const double sum = static_cast<double>((x & 0xFFFF) + ((x >> 16) & 0xFFFF) +
                                               ((x >> 32) & 0xFFFF) + (x >> 48)) +
                           2.0; // +0.5 per term: centre each 16-bit value in its cell
        return (sum * 0x1.0p-16 - 2.0) * 1.7320508075688772;
    }

private:
    // splitmix64 finaliser: nearby seeds (1, 2, 3...) give unrelated engine states.
    static uint64_t mix(uint64_t z)
    {
        z += 0x9E3779B97F4A7C15ull;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }

    std::mt19937_64 engine_;
};

} // namespace rankscope
