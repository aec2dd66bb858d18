package org.finestate.views;

import java.util.ArrayList;

import org.json.JSONArray;
import org.json.JSONObject;

/** The type name to its control class: the table in android/README.md. */
final class Controls {
    private Controls() {}

    static Control create(String component, Ui ui, JSONObject params) {
        switch (component) {
            case "slider": return new SliderControl(ui, params);
            case "seek_bar": return new SeekBarControl(ui, params);
            case "switch": return new SwitchControl(ui, params);
            case "checkbox": return new CheckboxControl(ui, params);
            case "radio_group": return new RadioGroupControl(ui, params);
            case "list_box": return new ListBoxControl(ui, params);
            case "rating": return new RatingControl(ui, params);
            case "tabs": return new TabsControl(ui, params);
            case "segmented": return new SegmentedControl(ui, params);
            case "stepper": return new StepperControl(ui, params);
            case "accordion": return new AccordionControl(ui, params);
            case "date_picker": return new DatePickerControl(ui, params);
            case "color_picker": return new ColorPickerControl(ui, params);
            case "carousel": return new CarouselControl(ui, params);
            case "tree_view": return new TreeViewControl(ui, params);
            case "knob": return new KnobControl(ui, params);
            case "time_picker": return new TimePickerControl(ui, params);
            case "chart_point": return new ChartPointControl(ui, params);
            case "drag_reorder": return new DragReorderControl(ui, params);
            case "zoom_pan": return new ZoomPanControl(ui, params);
            case "resizable_pane": return new ResizablePaneControl(ui, params);
            case "table_column": return new TableColumnControl(ui, params);
            case "scrollbar": return new ScrollbarControl(ui, params);
            default: throw new IllegalArgumentException("unknown component '" + component + "'");
        }
    }

    /** A state from the spec in the form the controls use: JSON null as null, arrays as lists. */
    static Object plain(Object value) {
        if (value == null || value == JSONObject.NULL) return null;
        if (value instanceof JSONArray) {
            JSONArray array = (JSONArray) value;
            ArrayList<Object> out = new ArrayList<Object>();
            for (int i = 0; i < array.length(); i++) out.add(plain(array.opt(i)));
            return out;
        }
        return value;
    }
}
