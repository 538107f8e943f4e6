// WhatIfController: "Save spec as" of the what-if panel (the edited copy of a network spec
// written as YAML, with a comment naming the file it came from and its edits).
#include "app/mainwindow.h"
#include "app/whatifcontroller.h"
#include "model/support/atomicfile.h"

#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QStatusBar>

namespace rankscope {

namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

bool samePath(const QString& a, const QString& b)
{
    const QFileInfo fa(a), fb(b);
    const QString ca = fa.canonicalFilePath(), cb = fb.canonicalFilePath();
    if (!ca.isEmpty() && !cb.isEmpty()) return ca == cb;
    return QDir::cleanPath(fa.absoluteFilePath()) == QDir::cleanPath(fb.absoluteFilePath());
}

} // namespace

void WhatIfController::saveSpecAs(const netsim::NetworkSpec& spec)
{
    const QString suggestion =
        QFileInfo(qs(spec.source)).completeBaseName() + QStringLiteral("-edited.yaml");
    const QString path = QFileDialog::getSaveFileName(window_, tr("Save Network Spec"), suggestion,
                                                      tr("Network spec (*.yaml)"));
    if (path.isEmpty()) return;
    if (samePath(path, qs(spec.source)) && !spec.overrides.empty()) {
        // Saving over the file is allowed, but only because the user chose it explicitly.
        window_->statusBar()->showMessage(tr("Overwriting %1 with the edited spec").arg(path),
                                          5000);
    }
    std::string text = "# " + spec.name + ": saved by Rankscope from " + spec.source;
    if (!spec.overrides.empty()) {
        text += " with edits:";
        for (const netsim::SpecOverride& o : spec.overrides)
            text += " " + o.key + "=" + o.value;
    }
    text += "\n";
    try {
        text += spec.effectiveYaml();
    } catch (const std::exception& e) {
        window_->reportError(tr("Cannot save the spec"), QString::fromLocal8Bit(e.what()));
        return;
    }
    try {
        writeFileAtomically(QFile::encodeName(path).toStdString(), text, "the network spec");
    } catch (const std::exception& e) {
        window_->reportError(tr("Cannot save the spec"), QString::fromLocal8Bit(e.what()));
        return;
    }
    window_->statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
}

} // namespace rankscope
