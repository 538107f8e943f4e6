#pragma once
// Where tests find their inputs: the shared Score-P traces, the traces checked in under
// resources/demo/traces, and the fixtures under tests/data.

#include <QString>
#include <QStringList>

namespace rankscope::test {

/// Folder of one shared Score-P trace (e.g. "casita-mpi-tags-10r"), or empty if absent.
QString sharedTrace(const QString& name);
/// Names of the shared traces present (folders holding a traces.otf2), sorted.
QStringList sharedTraceNames();
/// Anchor file (traces.otf2) of one shared trace, or empty if absent.
QString sharedTraceAnchor(const QString& name);
/// Copies the shared trace `name` into the folder `dir` (files made writable, so a test may
/// damage them) and returns the copy's anchor file; empty if the shared trace is absent.
QString copySharedTrace(const QString& name, const QString& dir);

/// Folder of one trace checked in under resources/demo/traces (e.g. "stencil2d-9"), or empty.
QString checkedInTrace(const QString& name);
/// Names of the checked-in traces (folders holding a traces.otf2), sorted.
QStringList checkedInTraceNames();
/// Anchor file of one checked-in trace, or empty.
QString checkedInTraceAnchor(const QString& name);

/// Anchor file of the trace `name`: the shared one when present, else the checked-in one of
/// that name (casita-mpi-late-sender-barrier-4r and tracer-stencil4d-64r are checked in as
/// the same files), else empty.
QString traceAnchor(const QString& name);
/// Copies the trace traceAnchor(name) finds into the folder `dir`, as copySharedTrace does;
/// empty if there is none.
QString copyTrace(const QString& name, const QString& dir);

/// A checked-in fixture under tests/data.
QString testData(const QString& relative);

} // namespace rankscope::test
