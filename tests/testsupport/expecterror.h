#pragma once
// EXPECT_TRACE_ERROR(expr, needle): a Qt Test check that `expr` throws a TraceError whose
// message contains `needle` (a QString).

#include "model/trace/traceerror.h"

#include <QString>
#include <QTest>

/// Runs `expr` and checks that it throws a TraceError whose message contains `needle`.
#define EXPECT_TRACE_ERROR(expr, needle)                                                           \
    do {                                                                                           \
        QString message;                                                                           \
        try {                                                                                      \
            (void)(expr);                                                                          \
        } catch (const TraceError& e) {                                                            \
            message = QString::fromUtf8(e.what());                                                 \
        }                                                                                          \
        QVERIFY2(!message.isEmpty(), "no TraceError thrown");                                      \
        QVERIFY2(message.contains(needle), qPrintable(message));                                   \
    } while (0)
