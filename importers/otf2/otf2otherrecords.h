#pragma once
// The OTF2 event record types the importer keeps as MiscKind::Other events (so that a trace
// written back keeps their place in the timeline), with the names otf2-print gives them. One
// X-macro list serves the enum, the name table and the callback registration in
// otf2eventreader.cpp. Metric records are not among them: they become metric columns.

#include <cstdint>

namespace rankscope::otf2other {

#define RANKSCOPE_OTHER_RECORDS(X)                                                                 \
    X(BufferFlush, "BUFFER_FLUSH")                                                                 \
    X(OmpFork, "OMP_FORK")                                                                         \
    X(OmpJoin, "OMP_JOIN")                                                                         \
    X(OmpAcquireLock, "OMP_ACQUIRE_LOCK")                                                          \
    X(OmpReleaseLock, "OMP_RELEASE_LOCK")                                                          \
    X(OmpTaskCreate, "OMP_TASK_CREATE")                                                            \
    X(OmpTaskSwitch, "OMP_TASK_SWITCH")                                                            \
    X(OmpTaskComplete, "OMP_TASK_COMPLETE")                                                        \
    X(ParameterString, "PARAMETER_STRING")                                                         \
    X(ParameterInt, "PARAMETER_INT")                                                               \
    X(ParameterUnsignedInt, "PARAMETER_UNSIGNED_INT")                                              \
    X(RmaWinCreate, "RMA_WIN_CREATE")                                                              \
    X(RmaWinDestroy, "RMA_WIN_DESTROY")                                                            \
    X(RmaCollectiveBegin, "RMA_COLLECTIVE_BEGIN")                                                  \
    X(RmaCollectiveEnd, "RMA_COLLECTIVE_END")                                                      \
    X(RmaGroupSync, "RMA_GROUP_SYNC")                                                              \
    X(RmaRequestLock, "RMA_REQUEST_LOCK")                                                          \
    X(RmaAcquireLock, "RMA_ACQUIRE_LOCK")                                                          \
    X(RmaTryLock, "RMA_TRY_LOCK")                                                                  \
    X(RmaReleaseLock, "RMA_RELEASE_LOCK")                                                          \
    X(RmaSync, "RMA_SYNC")                                                                         \
    X(RmaWaitChange, "RMA_WAIT_CHANGE")                                                            \
    X(RmaPut, "RMA_PUT")                                                                           \
    X(RmaGet, "RMA_GET")                                                                           \
    X(RmaAtomic, "RMA_ATOMIC")                                                                     \
    X(RmaOpCompleteBlocking, "RMA_OP_COMPLETE_BLOCKING")                                           \
    X(RmaOpCompleteNonBlocking, "RMA_OP_COMPLETE_NON_BLOCKING")                                    \
    X(RmaOpTest, "RMA_OP_TEST")                                                                    \
    X(RmaOpCompleteRemote, "RMA_OP_COMPLETE_REMOTE")                                               \
    X(ThreadFork, "THREAD_FORK")                                                                   \
    X(ThreadJoin, "THREAD_JOIN")                                                                   \
    X(ThreadTeamBegin, "THREAD_TEAM_BEGIN")                                                        \
    X(ThreadTeamEnd, "THREAD_TEAM_END")                                                            \
    X(ThreadAcquireLock, "THREAD_ACQUIRE_LOCK")                                                    \
    X(ThreadReleaseLock, "THREAD_RELEASE_LOCK")                                                    \
    X(ThreadTaskCreate, "THREAD_TASK_CREATE")                                                      \
    X(ThreadTaskSwitch, "THREAD_TASK_SWITCH")                                                      \
    X(ThreadTaskComplete, "THREAD_TASK_COMPLETE")                                                  \
    X(ThreadCreate, "THREAD_CREATE")                                                               \
    X(ThreadBegin, "THREAD_BEGIN")                                                                 \
    X(ThreadWait, "THREAD_WAIT")                                                                   \
    X(ThreadEnd, "THREAD_END")                                                                     \
    X(CallingContextEnter, "CALLING_CONTEXT_ENTER")                                                \
    X(CallingContextLeave, "CALLING_CONTEXT_LEAVE")                                                \
    X(CallingContextSample, "CALLING_CONTEXT_SAMPLE")                                              \
    X(IoCreateHandle, "IO_CREATE_HANDLE")                                                          \
    X(IoDestroyHandle, "IO_DESTROY_HANDLE")                                                        \
    X(IoDuplicateHandle, "IO_DUPLICATE_HANDLE")                                                    \
    X(IoSeek, "IO_SEEK")                                                                           \
    X(IoChangeStatusFlags, "IO_CHANGE_STATUS_FLAGS")                                               \
    X(IoDeleteFile, "IO_DELETE_FILE")                                                              \
    X(IoOperationBegin, "IO_OPERATION_BEGIN")                                                      \
    X(IoOperationTest, "IO_OPERATION_TEST")                                                        \
    X(IoOperationIssued, "IO_OPERATION_ISSUED")                                                    \
    X(IoOperationComplete, "IO_OPERATION_COMPLETE")                                                \
    X(IoOperationCancelled, "IO_OPERATION_CANCELLED")                                              \
    X(IoAcquireLock, "IO_ACQUIRE_LOCK")                                                            \
    X(IoReleaseLock, "IO_RELEASE_LOCK")                                                            \
    X(IoTryLock, "IO_TRY_LOCK")                                                                    \
    X(NonBlockingCollectiveRequest, "NON_BLOCKING_COLLECTIVE_REQUEST")                             \
    X(NonBlockingCollectiveComplete, "NON_BLOCKING_COLLECTIVE_COMPLETE")                           \
    X(Unknown, "UNKNOWN")

enum OtherRecord : uint32_t
{
#define RANKSCOPE_ENUM(name, text) kRecord##name,
    RANKSCOPE_OTHER_RECORDS(RANKSCOPE_ENUM)
#undef RANKSCOPE_ENUM
        kOtherRecordCount
};

inline constexpr const char* kOtherRecordNames[] = {
#define RANKSCOPE_NAME(name, text) text,
    RANKSCOPE_OTHER_RECORDS(RANKSCOPE_NAME)
#undef RANKSCOPE_NAME
};

} // namespace rankscope::otf2other
