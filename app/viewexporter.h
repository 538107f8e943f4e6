#pragma once
// Saves what a widget shows as a PNG (pixels, at the screen's device pixel ratio) or an SVG
// (vectors: the widget paints itself into a QSvgGenerator), chosen by the file's suffix.

#include <QString>

class QWidget;

namespace rankscope {

class ViewExporter
{
public:
    /// Writes `widget` to `path` (.png or .svg); on failure returns false and sets `error`.
    static bool save(QWidget* widget, const QString& path, QString* error = nullptr);
    /// The file-dialog filter for the supported formats.
    static QString fileFilter();
};

} // namespace rankscope
