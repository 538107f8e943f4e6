#pragma once
// Reads a text trace in blocks of whole lines, in two stages: a tokenizer cuts each line into
// what the format's parser needs (fields, numbers, times) and a consumer then takes each block's
// tokens in file order. With two or more threads the tokenizer runs on a second thread, up to
// five blocks ahead of the consumer (the calling thread), so reading and cutting the text overlap
// with the parser's work; with one thread both stages run by turns on the calling thread. The
// consumer sees the same blocks in the same order either way, so the result does not depend on
// the thread count (bench/import measures both).
//
// An error of the source or the tokenizer is kept with the block it happened in and rethrown
// after the consumer has taken that block's earlier lines, so errors come in file order. An
// error of the consumer (or a Cancelled) stops the tokenizer before it is rethrown.

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace rankscope::text {

/// One block of whole lines and its tokens. The lines' bytes stay valid until the consumer
/// returns, so tokens may be views into them.
template <class Tokens> struct LineBlock
{
    std::string bytes;
    Tokens tokens;
    uint64_t firstLine = 0;    ///< number of the block's first line (1 for the file's first)
    uint64_t lines = 0;        ///< lines cut in this block
    uint64_t offset = 0;       ///< the source's offset after the block (for progress)
    bool last = false;         ///< the source ended (or failed) in this block
    bool unterminated = false; ///< the file's last line, in this block, has no newline
    std::exception_ptr error;  ///< thrown after the block's tokens were cut
};

inline constexpr size_t kReadFailed = SIZE_MAX;

/// Runs the two stages over `source`:
///   source.read(char* into, size_t max) -> bytes read, 0 at the end, kReadFailed on an error;
///   source.failure(uint64_t nextLine) -> the exception_ptr of that error, naming the line
///       after the last whole one read (the lines before it are handed on first);
///   source.offset() -> how far the source has read, for progress;
///   tokenize(std::string_view line, uint64_t number, Tokens&) on the tokenizer's thread;
///   consume(const LineBlock<Tokens>&) on the calling thread, in file order;
///   tooLong(uint64_t number) throws for a line longer than `maxLine` bytes.
/// Tokens must have clear(), called before a block is filled again.
template <class Tokens, class Source, class Tokenize, class Consume, class TooLong>
void runLinePipeline(Source& source, Tokenize&& tokenize, Consume&& consume, TooLong&& tooLong,
                     unsigned threads, size_t blockBytes = size_t(1) << 20,
                     size_t maxLine = size_t(1) << 26)
{
    std::string carry; // the unfinished line at the end of the previous block
    uint64_t nextLine = 1;
    bool ended = false;

    // Fills `b` with whole lines (the carried bytes first) and cuts and tokenizes them.
    const auto fill = [&](LineBlock<Tokens>& b) {
        b.tokens.clear();
        b.firstLine = nextLine;
        b.lines = 0;
        b.unterminated = false;
        b.error = nullptr;
        if (b.bytes.size() < blockBytes + carry.size()) b.bytes.resize(blockBytes + carry.size());
        std::memcpy(b.bytes.data(), carry.data(), carry.size());
        size_t used = carry.size();
        carry.clear();
        size_t cut = 0; // bytes of whole lines
        bool failed = false;
        try {
            for (;;) {
                if (used == b.bytes.size()) {
                    if (used > maxLine) tooLong(nextLine);
                    b.bytes.resize(b.bytes.size() * 2);
                }
                const size_t got = source.read(b.bytes.data() + used, b.bytes.size() - used);
                if (got == 0 || got == kReadFailed) {
                    failed = got == kReadFailed;
                    ended = true;
                    break;
                }
                used += got;
                const auto* nl = static_cast<const char*>(memrchr(b.bytes.data(), '\n', used));
                if (nl && used >= blockBytes / 2) {
                    cut = size_t(nl - b.bytes.data()) + 1;
                    break;
                }
            }
            if (ended) {
                const auto* nl = static_cast<const char*>(memrchr(b.bytes.data(), '\n', used));
                cut = nl ? size_t(nl - b.bytes.data()) + 1 : 0;
            }
            b.offset = source.offset();
            const char* data = b.bytes.data();
            size_t begin = 0;
            while (begin < cut) {
                const auto* nl =
                    static_cast<const char*>(std::memchr(data + begin, '\n', cut - begin));
                const size_t end = size_t(nl - data);
                tokenize(std::string_view(data + begin, end - begin), nextLine, b.tokens);
                ++nextLine;
                ++b.lines;
                begin = end + 1;
            }
            if (failed) {
                b.error = source.failure(nextLine);
            } else if (ended && used > cut) { // the last line has no newline
                if (used - cut > maxLine) tooLong(nextLine);
                b.unterminated = true;
                tokenize(std::string_view(data + cut, used - cut), nextLine, b.tokens);
                ++nextLine;
                ++b.lines;
            } else if (!ended) {
                carry.assign(data + cut, used - cut);
            }
        } catch (...) {
            b.error = std::current_exception();
            ended = true;
        }
        b.last = ended;
    };

    if (threads <= 1) {
        LineBlock<Tokens> b;
        do {
            fill(b);
            consume(b);
            if (b.error) std::rethrow_exception(b.error);
        } while (!b.last);
        return;
    }

    // Six blocks go round: one being filled, one being consumed, and up to four waiting, so
    // that a slow block on either side does not stall the other.
    constexpr size_t kBlocks = 6;
    std::vector<LineBlock<Tokens>> blocks(kBlocks);
    std::mutex m;
    std::condition_variable cv;
    std::vector<LineBlock<Tokens>*> freeBlocks, fullBlocks; // fullBlocks in file order
    for (auto& b : blocks)
        freeBlocks.push_back(&b);
    bool stop = false;
    std::thread reader([&] {
        for (;;) {
            LineBlock<Tokens>* b = nullptr;
            {
                std::unique_lock lock(m);
                cv.wait(lock, [&] { return stop || !freeBlocks.empty(); });
                if (stop) return;
                b = freeBlocks.back();
                freeBlocks.pop_back();
            }
            fill(*b);
            {
                std::lock_guard lock(m);
                fullBlocks.push_back(b);
            }
            cv.notify_all();
            if (b->last) return;
        }
    });
    struct Join
    {
        std::thread& t;
        std::mutex& m;
        std::condition_variable& cv;
        bool& stop;
        ~Join()
        {
            {
                std::lock_guard lock(m);
                stop = true;
            }
            cv.notify_all();
            t.join();
        }
    } join{reader, m, cv, stop};
    for (;;) {
        LineBlock<Tokens>* b = nullptr;
        {
            std::unique_lock lock(m);
            cv.wait(lock, [&] { return !fullBlocks.empty(); });
            b = fullBlocks.front();
            fullBlocks.erase(fullBlocks.begin());
        }
        consume(*b);
        if (b->error) std::rethrow_exception(b->error);
        if (b->last) return;
        {
            std::lock_guard lock(m);
            freeBlocks.push_back(b);
        }
        cv.notify_all();
    }
}

} // namespace rankscope::text
