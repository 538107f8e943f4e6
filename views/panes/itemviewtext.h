#pragma once
// How the item views (tables and trees of the panes) show text that does not fit: elided in the
// middle, so both the start and the end of a call path stay visible ("main>…>MPI_Waitall"),
// with the full text as a tooltip wherever a cell is cut, and columns never narrower than a
// few characters.

class QAbstractItemView;

namespace rankscope::ItemViewText {

/// Middle elision, a minimum column width of about 6 characters, and full-text tooltips for
/// cut cells (a cell's own tooltip, when the model gives one, wins).
void install(QAbstractItemView* view);

} // namespace rankscope::ItemViewText
