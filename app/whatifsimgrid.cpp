#include "app/whatifsimgrid.h"

#include "app/mainwindow.h"
#include "app/tracedocument.h"
#include "whatif/scenario/scenario.h"

#include <QTabWidget>

namespace rankscope {

namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

} // namespace

std::optional<WhatIfComparison::Engines> enginesOf(const WhatIfOutcome& out)
{
    if (!out.simgrid) return std::nullopt;
    const netsim::PeerRun& r = *out.simgrid;
    WhatIfComparison::Engines e;
    e.model = qs(r.model);
    e.rankscopeNs = r.rankscopeNs;
    e.rankscopeWallSeconds = r.rankscopeWallSeconds;
    e.simgridNs = r.peerNs;
    e.simgridWallSeconds = r.peerWallSeconds;
    e.smpirunSeconds = r.peerToolSeconds;
    e.differencePercent = r.differencePercent;
    return e;
}

int openSimGridTab(MainWindow* window, const WhatIfOutcome& out, int after,
                   const char* scenarioProperty)
{
    if (!out.simgridResult.trace) return -1;
    QTabWidget* tabs = window->tabs();
    auto* doc = new TraceDocument(out.simgridResult, tabs);
    window->applyViewOptions(doc->timeline());
    doc->setProperty(scenarioProperty, qs(out.scenario.name));
    const int tab =
        tabs->insertTab(after + 1, doc, QObject::tr("SimGrid: %1").arg(qs(out.scenario.name)));
    QString tip = QObject::tr("SimGrid's predicted trace (smpirun -replay) of %1")
                      .arg(qs(whatif::describe(out.scenario)));
    if (const auto e = enginesOf(out))
        tip += QStringLiteral("\n") + WhatIfComparison::enginesText(*e);
    tabs->setTabToolTip(tab, tip);
    return tab;
}

} // namespace rankscope
