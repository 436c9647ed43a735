// SPDX-License-Identifier: MIT
/*
 * xite_sample.cjs - plays an X3D scene in X_ITE (npm x_ite), headless in
 * Node, on a clock of its own, and records the fields the scene animates.
 *
 *   node xite_sample.cjs SCENE [--load L] [--step DT] [--until T]
 *                        [--event T:NODE.FIELD=VALUE]... [--field NODE.FIELD]...
 *
 * X_ITE reads the time from Date.now(); here Date.now() returns a clock
 * the script sets, so the scene loads at X3D time L (default 0) and a frame
 * runs at each L + k*DT (k = 1, 2, ... while <= T). An --event sets a
 * field (set_startTime, set_destination, ...) just before the frame at or
 * after its time. Recorded: every field a ROUTE from an interpolator's or a
 * follower's value_changed reaches, and the --field ones, after each frame.
 * Output: JSON {"xite": version, "load": L, "step": DT, "fields": [...],
 * "frames": [{"t": time, "values": {"NODE.FIELD": [numbers]}}]}; rotations
 * are axis-angle [x, y, z, angle] as X_ITE holds them.
 *
 *   node xite_sample.cjs --nodes
 *
 * prints instead every node type X_ITE knows, with its fields: JSON {"xite":
 * version, "nodes": {"TYPE": [[NAME, FIELD TYPE, ACCESS TYPE], ...]}}, from
 * which tests/x3d/gen_x3d_nodes.py writes kfc's table of them.
 *
 * Needs, where Node finds them (NODE_PATH): x_ite, jsdom, jsdom-global and
 * nogl (WebGL calls answered by nothing: X_ITE renders into the void).
 */
'use strict';

const fs = require('fs');
const path = require('path');
const url = require('url');

// While the scene loads, X_ITE waits for its clock to move between frames:
// then each reading moves it by tickMs, 1e-10 s, so the load ends within
// microseconds of L. At an X3D time of now (L = 1.8e9 s), 1e-7 ms is below
// the clock's resolution and would never move it: there the tick is the
// least power-of-two multiple of 1e-7 ms that does (setClock). Frames read a
// clock that stands still.
let clockMs = 0, tickMs = 1e-7, ticking = false;
Date.now = () => (ticking ? (clockMs += tickMs) : clockMs);

function setClock(ms) {
    clockMs = ms;
    tickMs = 1e-7;
    while (clockMs + tickMs === clockMs)
        tickMs *= 2;
}

require('jsdom-global')();
const noop = Function.prototype;
global.require = require;
// Node 20 has no Float16Array; X_ITE names it only for texture formats.
global.Float16Array = global.Float16Array || Float32Array;
global.XMLDocument = window.Document;
const { performance: perf } = require('perf_hooks');
window.requestAnimationFrame = global.requestAnimationFrame = (cb) => setTimeout(() => cb(perf.now()), 0);
window.cancelAnimationFrame = global.cancelAnimationFrame = clearTimeout;
for (const name of ['MutationObserver', 'ResizeObserver'])
    window[name] = global[name] = class { observe() {} disconnect() {} };
const storage = () => {
    const m = new Map();
    return { getItem: (k) => (m.has(k) ? m.get(k) : null), setItem: (k, v) => m.set(k, String(v)),
             removeItem: (k) => m.delete(k), clear: () => m.clear() };
};
const globals = {
    customElements: { define: noop },
    devicePixelRatio: 1,
    localStorage: storage(),
    sessionStorage: storage(),
    visualViewport: { scale: 1, addEventListener: noop, removeEventListener: noop },
};
for (const [name, value] of Object.entries(globals)) {
    Object.defineProperty(window, name, { value, configurable: true, writable: true });
    Object.defineProperty(global, name, { value, configurable: true, writable: true });
}
window.FontFace = global.FontFace = class { async load() { return this; } };
// The Sound component builds a Web Audio graph, which jsdom lacks: every
// constructor it names answers, and plays nothing.
for (const name of ['AudioContext', 'OfflineAudioContext', 'Audio', 'AnalyserNode',
                    'AudioBufferSourceNode', 'BiquadFilterNode', 'ChannelMergerNode',
                    'ChannelSplitterNode', 'ConstantSourceNode', 'ConvolverNode', 'DelayNode',
                    'DynamicsCompressorNode', 'GainNode', 'MediaElementAudioSourceNode',
                    'OscillatorNode', 'PannerNode', 'StereoPannerNode', 'WaveShaperNode'])
    window[name] = global[name] = class {
        connect() { return this; } disconnect() {} createGain() { return new this.constructor(); }
        get gain() { return {}; } get destination() { return {}; } get listener() { return {}; }
        async resume() {} async suspend() {}
    };
window.fetch = global.fetch = (resource) => {
    const u = new URL(resource);
    if (u.protocol !== 'file:')
        return Promise.reject(new Error('no network: ' + resource));
    return fs.promises.readFile(url.fileURLToPath(u)).then((data) => new Response(data));
};
Object.defineProperty(document, 'fonts', { value: new Set(), configurable: true });
// The physics engine (ammo.js), which X_ITE loads for PROFILE Full and
// --nodes, decodes its WebAssembly with atob, which jsdom's refuses for a
// string that long.
global.atob = window.atob = (s) => Buffer.from(s, 'base64').toString('binary');
HTMLMediaElement.prototype.load = Function.prototype;
// A 2D context that draws nothing (X_ITE makes one to try its SVG parser).
HTMLCanvasElement.prototype.getContext = function (type) {
    if (type !== '2d')
        return null;
    const canvas = this;
    return new Proxy({}, {
        get: (target, key) => (key === 'canvas' ? canvas : key in target ? target[key]
            : () => ({ data: new Uint8ClampedArray(4), width: 0 })),
        set: (target, key, value) => { target[key] = value; return true; },
    });
};

const X3D = require('x_ite');
const nogl = require('nogl');
X3D.Context.create = function () {
    const gl = nogl();
    const createProgram = gl.createProgram;
    const stubs = ['bindVertexArray', 'blendEquationSeparate', 'blendFuncSeparate',
        'blitFramebuffer', 'copyBufferSubData', 'copyTexSubImage2D', 'copyTexSubImage3D',
        'createTransformFeedback', 'createVertexArray', 'deleteFramebuffer', 'drawBuffers',
        'generateMipmap', 'hint', 'isEnabled', 'polygonOffset', 'readPixels',
        'renderbufferStorageMultisample', 'texImage3D', 'transformFeedbackVaryings',
        'uniform1f', 'uniform1fv', 'uniform1i', 'uniform1iv', 'uniform2f', 'uniform2fv',
        'uniform2i', 'uniform2iv', 'uniform3f', 'uniform3fv', 'uniform3i', 'uniform3iv',
        'uniform4f', 'uniform4fv', 'uniform4i', 'uniform4iv', 'uniformMatrix2fv',
        'uniformMatrix3fv', 'uniformMatrix4fv', 'vertexAttribDivisor', 'bindTransformFeedback',
        'bindBufferBase', 'beginTransformFeedback', 'endTransformFeedback', 'deleteVertexArray'];
    for (const s of stubs)
        gl[s] = noop;
    gl.getVersion = () => 2;
    gl.createProgram = () => new Number(createProgram.call(gl));
    // Any other WebGL 2 call answers nothing too.
    return new Proxy(gl, { get: (t, k) => (k in t ? t[k] : noop) });
};

function parseArgs(argv) {
    const a = { scene: null, load: 0, step: 1 / 60, until: 2, events: [], fields: [] };
    for (let i = 0; i < argv.length; i++) {
        const v = argv[i];
        if (v === '--load') a.load = Number(argv[++i]);
        else if (v === '--step') a.step = Number(argv[++i]);
        else if (v === '--until') a.until = Number(argv[++i]);
        else if (v === '--event') {
            const m = /^([^:]+):([^.=]+)\.([^=]+)=(.*)$/.exec(argv[++i]);
            if (!m) throw new Error('bad --event ' + argv[i]);
            a.events.push({ t: Number(m[1]), node: m[2], field: m[3], value: m[4] });
        } else if (v === '--field') a.fields.push(argv[++i]);
        else if (!a.scene) a.scene = v;
        else throw new Error('unexpected argument ' + v);
    }
    if (!a.scene) throw new Error('usage: xite_sample.cjs SCENE [options]');
    return a;
}

function numbers(value) {
    if (typeof value === 'number' || typeof value === 'boolean') return [Number(value)];
    if (value && typeof value.getTypeName === 'function' && value.getTypeName().startsWith('MF')) {
        const out = [];
        for (let i = 0; i < value.length; i++) out.push(...numbers(value[i]));
        return out;
    }
    if (value && typeof value[Symbol.iterator] === 'function') {
        const out = [];
        for (const v of value) out.push(...numbers(v));
        return out;
    }
    if (value && typeof value.x === 'number') {
        const out = [value.x, value.y];
        if ('z' in value) out.push(value.z);
        if ('angle' in value) out.push(value.angle);
        return out;
    }
    if (value && typeof value.r === 'number') return [value.r, value.g, value.b];
    throw new Error('cannot record a value of ' + typeof value);
}

function animatedFields(scene) {
    const fields = [];
    for (const route of scene.routes) {
        const from = route.sourceNode;
        const types = from.getNodeTypeName();
        if (!/Interpolator|Chaser|Damper/.test(types) || route.sourceField !== 'value_changed')
            continue;
        if (route.destinationNode.getNodeTypeName() === 'Script')
            continue; // what a Script receives is no field of the scene
        const to = route.destinationNode.getNodeName();
        let field = route.destinationField.replace(/^set_/, '').replace(/_changed$/, '');
        const name = to + '.' + field;
        if (to && !fields.includes(name)) fields.push(name);
    }
    return fields;
}

function version() {
    const dir = path.dirname(require.resolve('x_ite'));
    return JSON.parse(fs.readFileSync(path.join(dir, '..', 'package.json'), 'utf8')).version;
}

function newBrowser() {
    const element = document.createElement('x3d-canvas');
    element.setAttribute('splashScreen', false);
    element.setAttribute('notifications', false);
    element.setAttribute('timings', false);
    return new X3D.X3DBrowser(element);
}

// X_ITE loads a component's nodes when a scene asks for it: all of them
// are loaded here, one by one.
async function nodes() {
    const browser = newBrowser();
    const components = browser.supportedComponents;
    for (let i = 0; i < components.length; i++)
        await browser.loadComponents(components[i]);
    const access = {};
    const types = {};
    for (const name of ['initializeOnly', 'inputOnly', 'outputOnly', 'inputOutput'])
        access[X3D.X3DConstants[name]] = name;
    for (const name of Object.keys(X3D.X3DConstants))
        if (/^[SM]F[A-Z]/.test(name))
            types[X3D.X3DConstants[name]] = name;
    const table = {};
    const concrete = browser.concreteNodes;
    for (let i = 0; i < concrete.length; i++) {
        const fields = concrete[i].fieldDefinitions;
        const out = [];
        for (let k = 0; k < fields.length; k++)
            out.push([fields[k].name, types[fields[k].dataType], access[fields[k].accessType]]);
        table[concrete[i].typeName] = out;
    }
    fs.writeSync(1, JSON.stringify({ xite: version(), nodes: table }) + '\n');
    process.exit(0);
}

async function main() {
    if (process.argv[2] === '--nodes')
        return nodes();
    const a = parseArgs(process.argv.slice(2));
    setClock(a.load * 1000);
    ticking = true;
    const browser = newBrowser();
    browser.setBrowserOption('LoadUrlObjects', false);
    browser.setBrowserOption('MaximumFrameRate', 1e12);
    const scene = await browser.createX3DFromURL(new X3D.MFString(url.pathToFileURL(path.resolve(a.scene)).href));
    await browser.replaceWorld(scene);
    ticking = false;
    let fields = animatedFields(scene);
    for (const f of a.fields)
        if (!fields.includes(f)) fields.push(f);
    // Only fields of nodes the scene names (not those of a prototype's
    // instance, or imported from an Inline, that scene.getNamedNode misses).
    fields = fields.filter((f) => {
        const dot = f.lastIndexOf('.');
        try {
            scene.getNamedNode(f.slice(0, dot)).getField(f.slice(dot + 1));
            return true;
        } catch (e) {
            process.stderr.write('xite_sample: not recorded: ' + f + ': ' + e.message + '\n');
            return false;
        }
    });
    const frames = [];
    const events = a.events.slice().sort((x, y) => x.t - y.t);
    const count = Math.floor((a.until + 1e-9) / a.step);
    for (let k = 1; k <= count; k++) {
        const t = a.load + k * a.step;
        clockMs = t * 1000;
        browser.advanceOnlyTime();
        while (events.length && events[0].t <= t + 1e-9) {
            const e = events.shift();
            const node = scene.getNamedNode(e.node);
            const field = node.getField(e.field);
            const nums = e.value.trim().split(/[\s,]+/).map(Number);
            const type = field.getTypeName();
            if (/^SF(Float|Double|Time|Int32)$/.test(type)) field.setValue(nums[0]);
            else if (type === 'SFBool') field.setValue(e.value.trim() === 'true');
            else field.setValue(new (X3D[type])(...nums));
        }
        browser.addBrowserEvent();
        await browser.nextFrame();
        const values = {};
        for (const f of fields) {
            const dot = f.lastIndexOf('.');
            const node = scene.getNamedNode(f.slice(0, dot));
            const field = node.getField(f.slice(dot + 1));
            values[f] = numbers(field.getTypeName().startsWith('MF') ? field : field.getValue());
        }
        frames.push({ t: Number(t.toFixed(9)), values });
    }
    fs.writeSync(1, JSON.stringify({ xite: version(), load: a.load, step: a.step, fields, frames }) + '\n');
    browser.dispose?.();
    process.exit(0);
}

main().catch((e) => {
    process.stderr.write('xite_sample: ' + (e && e.stack || e) + '\n');
    process.exit(1);
});
