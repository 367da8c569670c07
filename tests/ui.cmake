# The Qt front end (ui/): one Qt Test executable per feature, all on the offscreen platform.
#  ui_session_test  the AttentionDocument and .attnviz sessions (round trip, versions, errors)
#  ui_error_text_test  engine errors said in the window's language (the CLI keeps English)
#  ui_colour_table_test  the worker's colour tables give QCustomPlot's colours, level by level
#  ui_window_test   the real widgets: typing, heads, masks, dropout, hover, sessions, exports
#  ui_export_test   figure and weight exports, `attnviz export` through QProcess, CJK fonts
#  ui_classroom_test  the teaching views, presentation mode, examples, --view steps|lines
if(TARGET attnviz_ui)
    attnviz_add_test(ui_session_test ui_session_test.cpp LIBS attnviz_ui GUI)
    attnviz_add_test(ui_colour_table_test ui_colour_table_test.cpp LIBS attnviz_ui GUI)
    attnviz_add_test(ui_error_text_test ui_error_text_test.cpp LIBS attnviz_ui GUI)
    attnviz_add_test(ui_window_test ui_window_test.cpp LIBS attnviz_ui GUI)
    attnviz_add_test(ui_export_test ui_export_test.cpp LIBS attnviz_ui GUI)
    # ui_export_test runs the attnviz binary (ui_window_test does not: the tsan phase builds it
    # without the binary).
    add_dependencies(ui_export_test attnviz)
    # The classroom: steps, lines, statistics, presentation, examples, export --view steps.
    attnviz_add_test(ui_classroom_test ui_classroom_test.cpp LIBS attnviz_ui GUI)
    add_dependencies(ui_classroom_test attnviz)
endif()

# A trained model in the window (issue 11): the model view, the layer selector, bad and
# cancelled loads, sessions version 3.
if(TARGET attnviz_ui)
    attnviz_add_test(ui_model_test ui_model_test.cpp LIBS attnviz_ui GUI)
endif()
if(TARGET attnviz_ui)
    add_dependencies(ui_model_test attnviz)
endif()

# The logit lens (issue 23): the Logit Lens tab against models::predict, its tool tip, the
# CSV, and `attnviz export --view lens`.
if(TARGET attnviz_ui)
    attnviz_add_test(ui_lens_test ui_lens_test.cpp LIBS attnviz_ui GUI)
    add_dependencies(ui_lens_test attnviz)
endif()

# The window's threads: Cancel and closing stop a model's pass between layers; closing during
# an export waits for its thread.
if(TARGET attnviz_ui)
    attnviz_add_test(ui_threads_test ui_threads_test.cpp LIBS attnviz_ui GUI)
    # As on a fresh Debian 12: no TZ (localTimeIsConvertedOnTwoThreadsAtOnce, issue 40).
    set_tests_properties(ui_threads_test PROPERTIES ENVIRONMENT_MODIFICATION "TZ=unset:")
endif()

# Nothing lost when the app dies (issue 26).
#  ui_recovery_test  the recovery store (a copy per instance, stale once its owner is dead, a
#                    clean exit removes it), the keeper in a real window, and the real binary
#                    killed with SIGKILL, then the offer and the restored work
if(TARGET attnviz_ui)
    attnviz_add_test(ui_recovery_test ui_recovery_test.cpp LIBS attnviz_ui GUI)
    add_dependencies(ui_recovery_test attnviz)
endif()

# What a new user hits (issue 23): looking around is no edit, the tool bar while a model is the
# source, the example banner, wording, the Atlas table, Steps after a language switch, unknown
# characters.
if(TARGET attnviz_ui)
    attnviz_add_test(ui_newuser_test ui_newuser_test.cpp LIBS attnviz_ui GUI)
    attnviz_add_test(ui_knockout_test ui_knockout_test.cpp LIBS attnviz_ui GUI)
endif()

# Attention maps computed elsewhere as the window's source (issue 25): attend's output read back
# as the model's pass, the window on such files, bad files, the rows' warning, sessions.
if(TARGET attnviz_ui)
    attnviz_add_test(ui_attention_maps_test ui_attention_maps_test.cpp LIBS attnviz_ui GUI)
    add_dependencies(ui_attention_maps_test attnviz)
endif()

# The Patching tab (issue 23): texts of different lengths, the sweep against the engine's
# patch_sweep, Cancel in the middle, a click on a head, the exports, the worked example.
if(TARGET attnviz_ui)
    attnviz_add_test(ui_patch_test ui_patch_test.cpp LIBS attnviz_ui GUI)
    add_dependencies(ui_patch_test attnviz)
endif()

# Knocking heads out in the window (issue 23): the context menus, the crossed-out heads, the
# predictions strip and box, Undo / Redo and the model's panel.
if(TARGET attnviz_ui)
    attnviz_add_test(ui_knockout_widgets_test ui_knockout_widgets_test.cpp LIBS attnviz_ui GUI)
endif()

# The generation timeline (issue 23): Continue against the engine's generate(), the slider's
# steps against the final pass, Play, Stop, Keep / Discard / Undo, knock-outs, sessions.
if(TARGET attnviz_ui)
    attnviz_add_test(ui_generation_test ui_generation_test.cpp LIBS attnviz_ui GUI)
endif()

# The Positions tab (issue 24): the statistics pass's curves against the full maps, heads and
# curves picked, exports, Cancel, maps from a file, a text past the model's positions.
if(TARGET attnviz_ui)
    attnviz_add_test(ui_positions_test ui_positions_test.cpp LIBS attnviz_ui GUI)
endif()

# One head's whole map, zoomable (issues 24 and 25): the pyramid level and region each zoom and
# pan draws, hovering, the window from the Model tab's and the Atlas's menus, bit for bit for a
# model's pass and a file, the budget, exports.
if(TARGET attnviz_ui)
    attnviz_add_test(ui_full_map_test ui_full_map_test.cpp LIBS attnviz_ui GUI)
endif()

# The classroom on every screen (issue 35):
#  ui_layout_test  every example in English and Chinese, at 1280×800, 1920×1080 and in
#                  Presentation Mode: no label or button cut, no column wider than its
#                  splitter, the figure at least half the window's height
if(TARGET attnviz_ui)
    attnviz_add_test(ui_layout_test ui_layout_test.cpp LIBS attnviz_ui GUI)
    # A classroom projector's screen, 1280×800 (tests/data/projector_screen.json): Presentation
    # Mode fills it, and a first launch on it opens maximized.
    set_tests_properties(ui_layout_test PROPERTIES ENVIRONMENT
        "ATTNVIZ_CLI=$<TARGET_FILE:attnviz>;QT_QPA_PLATFORM=offscreen:configfile=${CMAKE_CURRENT_SOURCE_DIR}/data/projector_screen.json")
    if(ATTNVIZ_SANITIZE)
        # The layouts are the release build's to check (90 s there); under the sanitizers a
        # few examples run, for the memory errors.
        target_compile_definitions(ui_layout_test PRIVATE ATTNVIZ_LAYOUT_FEW_EXAMPLES=1)
    endif()
endif()

# Every figure kind's text (issue 35):
#  ui_figure_text_test  grid, mean, head, steps, lines, compare, model, atlas, lens, predictions,
#                       patch, positions and full map, fed by every example, in English and
#                       Chinese, at the export's default size and at 1280×800: every text item
#                       inside the canvas, no two overlapping (support/text_layout.h records them)
if(TARGET attnviz_ui)
    attnviz_add_test(ui_figure_text_test ui_figure_text_test.cpp
        LIBS attnviz_ui attnviz_test_layout GUI)
endif()

# The whole model at one token (issue 35): the model-walk figure on real traces of the shipped
# models and every family's golden checkpoint: stages, hover values, the prediction against
# sampling_distribution, folding, the drawn token, the layout in English and Chinese.
if(TARGET attnviz_ui)
    attnviz_add_test(ui_model_walk_test ui_model_walk_test.cpp
        LIBS attnviz_ui attnviz_test_layout GUI)
endif()

# The whole model, step by step, in the window (issue 35): the example, the sliders against
# sampling_distribution, the seeded draw and Add, folding, the token chooser, knock-outs, a
# masked LM at its [MASK], the demo layer, Chinese.
if(TARGET attnviz_ui)
    attnviz_add_test(ui_whole_model_test ui_whole_model_test.cpp LIBS attnviz_ui GUI)
    add_dependencies(ui_whole_model_test attnviz)
endif()

# The Circuits tab (issue 38): the composition and copying scores against the engine's, the
# induction circuit of attn-only-2l, Q / K / V without a new computation, hover, a pair's two
# maps, the exports and `attnviz export --view circuits` against `attnviz circuits`, bad input.
if(TARGET attnviz_ui)
    attnviz_add_test(ui_circuits_test ui_circuits_test.cpp LIBS attnviz_ui GUI)
    add_dependencies(ui_circuits_test attnviz)
endif()

# The Flow tab (issue 38): the graph against models::flow_graph on attn-only-2l, the threshold
# slider redrawing without a pass, a click on a token's dot, an edge's hover text, a post-norm
# BERT refused, the layout in English and Chinese, and `attnviz export --view flow` against
# `attnviz flow --out-json`.
if(TARGET attnviz_ui)
    attnviz_add_test(ui_flow_test ui_flow_test.cpp LIBS attnviz_ui attnviz_test_layout GUI)
    add_dependencies(ui_flow_test attnviz)
endif()
