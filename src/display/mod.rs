//! Display: `matplotlib.pyplot` drawn with plotters, timing charts and the transfer
//! timeline.
