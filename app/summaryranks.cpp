#include "app/summaryranks.h"

#include "app/traceloader.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>
#include <QRegularExpression>

namespace rankscope {

QString summarySourcePath(const LoadedTrace& summary)
{
    const QString recorded = summary.summarySource;
    if (recorded.isEmpty()) return {};
    if (QFileInfo::exists(recorded)) return QFileInfo(recorded).absoluteFilePath();
    // The path was the cluster's: a trace copied along with its summary sits next to it, in its
    // own folder or alone.
    const QDir beside = QFileInfo(summary.path).absoluteDir();
    const QFileInfo original(recorded);
    const QString folder = original.dir().dirName();
    for (const QString& candidate :
         {beside.filePath(recorded),
          beside.filePath(folder + QLatin1Char('/') + original.fileName()),
          beside.filePath(original.fileName())})
        if (QFileInfo(candidate).isFile()) return QFileInfo(candidate).absoluteFilePath();
    return {};
}

bool parseRankRange(const QString& text, uint32_t ranks, uint32_t& first, uint32_t& end)
{
    static const QRegularExpression form(QStringLiteral(R"(^\s*(\d+)\s*(?:[-–]\s*(\d+))?\s*$)"));
    const QRegularExpressionMatch m = form.match(text);
    if (!m.hasMatch()) return false;
    bool ok1 = false, ok2 = true;
    const qulonglong a = m.captured(1).toULongLong(&ok1);
    const qulonglong b = m.captured(2).isEmpty() ? a : m.captured(2).toULongLong(&ok2);
    if (!ok1 || !ok2 || a > b || b >= ranks) return false;
    first = uint32_t(a);
    end = uint32_t(b) + 1;
    return true;
}

bool askAndLoadSummaryRanks(QWidget* parent, const LoadedTrace& summary, TraceLoader* loader)
{
    if (!summary.fromSummary || !summary.trace) return false;
    const auto ranks = uint32_t(summary.trace->rankCount());
    const uint32_t shown = std::min<uint32_t>(ranks, 16);
    bool ok = false;
    const QString text = QInputDialog::getText(
        parent, QObject::tr("Load Ranks from Trace"),
        QObject::tr("Ranks to load from the summarised trace (of 0–%1), e.g. 0-15:").arg(ranks - 1),
        QLineEdit::Normal, QStringLiteral("0-%1").arg(shown - 1), &ok);
    if (!ok) return false;
    uint32_t first = 0, end = 0;
    if (!parseRankRange(text, ranks, first, end)) {
        QMessageBox::warning(parent, QObject::tr("Load Ranks from Trace"),
                             QObject::tr("\"%1\" is no range of ranks 0 to %2 (write e.g. 0-15 or "
                                         "7).")
                                 .arg(text)
                                 .arg(ranks - 1));
        return false;
    }
    QString path = summarySourcePath(summary);
    if (path.isEmpty()) {
        QMessageBox::information(
            parent, QObject::tr("Load Ranks from Trace"),
            QObject::tr("The summary was made from %1, which is not here. Choose the trace's "
                        "anchor file (traces.otf2).")
                .arg(QDir::toNativeSeparators(summary.summarySource)));
        path = QFileDialog::getOpenFileName(parent, QObject::tr("Summarised Trace"), {},
                                            QObject::tr("OTF2 traces (*.otf2)"));
        if (path.isEmpty()) return false;
    }
    loader->loadRanks(path, first, end);
    return true;
}

} // namespace rankscope
