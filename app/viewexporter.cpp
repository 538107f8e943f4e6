#include "app/viewexporter.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QPainter>
#include <QPixmap>
#include <QSvgGenerator>
#include <QWidget>

namespace rankscope {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("rankscope::ViewExporter", text);
}

} // namespace

QString ViewExporter::fileFilter()
{
    return tr("PNG image (*.png);;SVG drawing (*.svg)");
}

bool ViewExporter::save(QWidget* widget, const QString& path, QString* error)
{
    const auto fail = [&](const QString& message) {
        if (error) *error = message;
        return false;
    };
    if (!widget) return fail(tr("There is no view to export."));
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(widget->size());
        svg.setViewBox(QRect(QPoint(0, 0), widget->size()));
        svg.setTitle(widget->windowTitle().isEmpty() ? QStringLiteral("Rankscope")
                                                     : widget->windowTitle());
        svg.setDescription(tr("Exported from Rankscope"));
        QPainter painter;
        if (!painter.begin(&svg)) return fail(tr("Cannot write %1.").arg(path));
        widget->render(&painter);
        painter.end();
        if (QFileInfo(path).size() <= 0) return fail(tr("Cannot write %1.").arg(path));
        return true;
    }
    if (suffix != QLatin1String("png"))
        return fail(tr("%1: choose a file name ending in .png or .svg.").arg(path));
    const QPixmap pixmap = widget->grab();
    if (pixmap.isNull() || !pixmap.save(path, "PNG")) return fail(tr("Cannot write %1.").arg(path));
    return true;
}

} // namespace rankscope
