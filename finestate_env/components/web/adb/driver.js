"use strict";
// The page's side of the adb backend (finestate_env/backends/adb.py). A device
// browser has no debugging protocol the backend can reach, so the page asks the
// backend for work (a long-polled GET /next through `adb reverse`), runs it on
// the stage and posts the result back (POST /result). Nothing here changes a
// control's state: input comes from the device's own touch screen.
(() => {
  const overlayId = "fs-adb-calibration";
  const frames = (n) => new Promise((resolve) => {
    const tick = () => (n-- <= 0 ? resolve() : requestAnimationFrame(tick));
    tick();
  });
  async function run(command) {
    switch (command.op) {
      case "hello":
        return { width: innerWidth, height: innerHeight, scale: devicePixelRatio };
      case "calibrate": {
        // A solid page-sized mark: the backend finds it in a screenshot to learn
        // where the page sits on the screen (status and address bars above it).
        const mark = document.createElement("div");
        mark.id = overlayId;
        Object.assign(mark.style, { position: "fixed", left: "0", top: "0", width: "100vw",
                                    height: "100vh", background: "#ff00ff", zIndex: "2147483647" });
        document.body.append(mark);
        await frames(3);
        return true;
      }
      case "uncalibrate":
        document.getElementById(overlayId)?.remove();
        await frames(3);
        return true;
      case "frame":
        FineState.setFrame(command.scale, command.offsetX, command.offsetY);
        return true;
      case "prepare": {
        const result = await FineState.prepare(command.spec);
        await frames(3);  // painted before the backend takes a screenshot
        return result;
      }
      case "render": {
        const state = await FineState.render(command.spec);
        await frames(3);
        return state;
      }
      case "state":  // with `distractors`, a page's distractors too, in one reply
        await frames(3);  // input that `input tap` injected is handled before a frame
        return command.distractors
          ? { state: FineState.state(), distractors: FineState.distractorStates() }
          : FineState.state();
      case "distractors":
        await frames(3);
        return FineState.distractorStates();
      case "measure":  // mid-episode: the boxes of the screen the next gesture acts on
        await frames(3);
        return FineState.measure(command.goal);
      // The box audit: show the spec once, then after each gesture record the
      // state and restore the control in place (stage.js, "Probing").
      case "startProbing":
        await FineState.startProbing(command.spec);
        await frames(3);
        return true;
      case "nextProbe":
        await frames(3);
        return FineState.nextProbe();
      case "stopProbing":
        FineState.stopProbing();
        return true;
      default:
        throw new Error(`unknown command ${command.op}`);
    }
  }
  async function loop() {
    for (;;) {
      let command;
      try {
        const response = await fetch("/next", { cache: "no-store" });
        if (response.status !== 200) continue;  // 204: nothing to do yet, ask again
        command = await response.json();
      } catch (error) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      let reply;
      try {
        reply = { id: command.id, ok: true, value: await run(command) };
      } catch (error) {
        reply = { id: command.id, ok: false, error: String(error) };
      }
      try {
        await fetch("/result", { method: "POST", body: JSON.stringify(reply),
                                 headers: { "content-type": "application/json" } });
      } catch (error) { /* the backend times the command out and says so */ }
    }
  }
  loop();
})();
