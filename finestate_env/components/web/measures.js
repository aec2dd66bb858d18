"use strict";
// Numbers a Python sampler sizes a control by and its web renderer draws it with, in
// one place: the renderers read them here (FineStateMeasures.<type>.<name>), the
// samplers through finestate_env/components/measures.py, which reads the JSON object
// between the two marker lines (so keep it JSON: double quotes, no comments, no
// trailing commas). CSS px. What each number is:
// - stage.margin: the free border around a control, on the stage and in a page's slot;
// - slider.thumb: the thumb's size and, with a mouse, the hit band's height;
// - knob.tip: the indicator tip's dot, all a press on it grabs with a mouse;
// - seek_bar.band, seek_bar.play: the hit band's height and the play button's size
//   with a mouse (a phone's come in params.hit and params.play);
// - chart_point.pad_top, pad_top_labels, pad_bottom: the plot's padding above its top
//   gridline (more with data labels) and below its axis;
// - date_picker.pad: the popup's side padding with a mouse (a phone's is params.pad);
// - time_picker.portrait_width, landscape_width: the card's width besides the dial.
(() => {
  const measures =
// JSON begin
{
  "stage": {"margin": 8},
  "slider": {"thumb": 20},
  "knob": {"tip": 10},
  "seek_bar": {"band": 20, "play": 32},
  "chart_point": {"pad_top": 12, "pad_top_labels": 26, "pad_bottom": 12},
  "date_picker": {"pad": 12},
  "time_picker": {"portrait_width": 34, "landscape_width": 170}
}
// JSON end
  ;
  for (const group of Object.values(measures)) Object.freeze(group);
  Object.defineProperty(window, "FineStateMeasures", { value: Object.freeze(measures),
                                                       writable: false });
})();
