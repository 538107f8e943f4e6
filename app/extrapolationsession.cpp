#include "app/extrapolationsession.h"

#include "app/mainwindow.h"
#include "app/tracedocument.h"

#include <QFile>
#include <QFileInfo>
#include <QTabWidget>
#include <QVariantMap>
#include <QWidget>

namespace rankscope::ExtrapolationSession {

namespace {

const char* const kProperty = "rankscopeExtrapolation";

QString q8(const std::string& s)
{
    return QFile::decodeName(s.c_str());
}
std::string std8(const QString& s)
{
    return QFile::encodeName(QFileInfo(s).absoluteFilePath()).toStdString();
}

TraceDocument* documentOf(const MainWindow& window, const QString& path)
{
    for (int i = 0; i < window.tabs()->count(); ++i)
        if (TraceDocument* doc = window.document(i))
            if (!doc->data().path.isEmpty() && QFileInfo(doc->data().path) == QFileInfo(path))
                return doc;
    return nullptr;
}

} // namespace

void tag(QWidget* tab, const ExtrapolationRequest& r)
{
    // Names of extrap::Method / Mode choices as the session spells them.
    const QString method = r.automatic                ? QStringLiteral("auto")
                           : r.rankscope && r.classic ? QStringLiteral("both")
                           : r.classic                ? QStringLiteral("classic")
                                                      : QStringLiteral("rankscope");
    tab->setProperty(kProperty,
                     QVariantMap{{QStringLiteral("traces"), r.paths},
                                 {QStringLiteral("measured"), r.measuredPath},
                                 {QStringLiteral("target"), r.target},
                                 {QStringLiteral("method"), method},
                                 {QStringLiteral("classic_mode"), r.classicMode == extrap::Mode::Sum
                                                                      ? QStringLiteral("sum")
                                                                      : QStringLiteral("interval")},
                                 {QStringLiteral("bins"), r.bins}});
}

std::optional<SessionExtrapolation> of(const QWidget* tab)
{
    const QVariant v = tab ? tab->property(kProperty) : QVariant();
    if (!v.isValid()) return std::nullopt;
    const QVariantMap m = v.toMap();
    SessionExtrapolation e;
    for (const QString& p : m.value(QStringLiteral("traces")).toStringList())
        e.traces.push_back(std8(p));
    if (const QString measured = m.value(QStringLiteral("measured")).toString();
        !measured.isEmpty())
        e.measured = std8(measured);
    e.target = m.value(QStringLiteral("target")).toUInt();
    e.method = m.value(QStringLiteral("method")).toString().toStdString();
    e.classicMode = m.value(QStringLiteral("classic_mode")).toString().toStdString();
    e.bins = m.value(QStringLiteral("bins")).toInt();
    return e;
}

QStringList pathsOf(const SessionExtrapolation& e)
{
    QStringList out;
    for (const std::string& t : e.traces)
        out << q8(t);
    if (!e.measured.empty()) out << q8(e.measured);
    return out;
}

bool request(const SessionExtrapolation& e, const MainWindow& window, ExtrapolationRequest& out,
             QString& error)
{
    out = ExtrapolationRequest();
    for (const std::string& t : e.traces) {
        TraceDocument* doc = documentOf(window, q8(t));
        if (!doc) {
            error = QObject::tr("%1 is not open").arg(q8(t));
            return false;
        }
        out.traces.push_back(doc->data().trace);
        out.names << doc->data().name;
        out.paths << doc->data().path;
    }
    if (!e.measured.empty()) {
        TraceDocument* doc = documentOf(window, q8(e.measured));
        if (!doc) {
            error = QObject::tr("%1 is not open").arg(q8(e.measured));
            return false;
        }
        out.measured = doc->data().trace;
        out.measuredName = doc->data().name;
        out.measuredPath = doc->data().path;
    }
    out.target = e.target;
    out.automatic = e.method == "auto";
    out.rankscope = e.method != "classic";
    out.classic = e.method != "rankscope";
    out.classicMode = e.classicMode == "sum" ? extrap::Mode::Sum : extrap::Mode::Interval;
    out.bins = e.bins;
    return true;
}

} // namespace rankscope::ExtrapolationSession
