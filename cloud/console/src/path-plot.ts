/**
 * The planned tool path drawn against the keep-out zones, seen from above (the x-y plane of the robot's base
 * frame, metres): boxes as rectangles, spheres as circles, prisms as their polygon. A top view drops height,
 * so a zone above or below the path (a ceiling, the table under the arm) would seem to hold it: zones whose
 * height band overlaps the path's are filled, the others are drawn dashed underneath, and every zone's and
 * point's title gives its z. Labels are drawn last, so no zone covers another's.
 */
import type { ConsentRequest } from '@pentagate/protocol';
import { svg } from './dom.js';

const SIZE = 240;
const MARGIN = 14;

type Zone = ConsentRequest['zones'][number];

function zoneExtent(zone: Zone): [number, number, number, number] {
  if (zone.shape === 'box') return [zone.minM.x, zone.minM.y, zone.maxM.x, zone.maxM.y];
  if (zone.shape === 'sphere') {
    const { x, y } = zone.centerM;
    return [x - zone.radiusM, y - zone.radiusM, x + zone.radiusM, y + zone.radiusM];
  }
  const xs = zone.polygonM.map((p) => p.x);
  const ys = zone.polygonM.map((p) => p.y);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** The zone's lowest and highest z, m. */
export function zoneHeightM(zone: Zone): [number, number] {
  if (zone.shape === 'box') return [zone.minM.z, zone.maxM.z];
  if (zone.shape === 'sphere') return [zone.centerM.z - zone.radiusM, zone.centerM.z + zone.radiusM];
  return [zone.zMinM, zone.zMaxM];
}

const metres = (z: number) => `${Math.round(z * 1000) / 1000}`;

export function pathPlot(request: Pick<ConsentRequest, 'pathM' | 'zones'>, label: string): SVGSVGElement {
  const extents = [...request.zones.map(zoneExtent), ...request.pathM.map((p) => [p.xM, p.yM, p.xM, p.yM])];
  const minX = Math.min(0, ...extents.map((e) => e[0]!));
  const minY = Math.min(0, ...extents.map((e) => e[1]!));
  const maxX = Math.max(0, ...extents.map((e) => e[2]!));
  const maxY = Math.max(0, ...extents.map((e) => e[3]!));
  const span = Math.max(maxX - minX, maxY - minY, 0.1);
  const scale = (SIZE - 2 * MARGIN) / span;
  // y grows upwards in the robot frame and downwards in SVG
  const px = (x: number) => MARGIN + (x - minX) * scale;
  const py = (y: number) => SIZE - MARGIN - (y - minY) * scale;
  const zs = request.pathM.map((p) => p.zM);
  const band = zs.length > 0 ? [Math.min(...zs), Math.max(...zs)] : undefined;
  const inBand = (zone: Zone) => {
    const [low, high] = zoneHeightM(zone);
    return band === undefined || (high >= band[0]! && low <= band[1]!);
  };
  const plot = svg('svg', {
    class: 'path-plot',
    viewBox: `0 0 ${SIZE} ${SIZE}`,
    role: 'img',
    'aria-label': label,
  });
  plot.append(
    svg('line', { class: 'axis', x1: px(minX), y1: py(0), x2: px(maxX), y2: py(0) }),
    svg('line', { class: 'axis', x1: px(0), y1: py(minY), x2: px(0), y2: py(maxY) }),
  );
  const labels = [svg('text', { x: px(0) + 2, y: py(0) - 2 }, 'base')];
  // zones clear of the path's height first, so the ones that matter are drawn over them
  const zones = [...request.zones.filter((z) => !inBand(z)), ...request.zones.filter(inBand)];
  for (const zone of zones) {
    const cls = inBand(zone) ? 'zone' : 'zone other-height';
    const shape =
      zone.shape === 'box'
        ? svg('rect', {
            class: cls,
            x: px(zone.minM.x),
            y: py(zone.maxM.y),
            width: (zone.maxM.x - zone.minM.x) * scale,
            height: (zone.maxM.y - zone.minM.y) * scale,
          })
        : zone.shape === 'sphere'
          ? svg('circle', {
              class: cls,
              cx: px(zone.centerM.x),
              cy: py(zone.centerM.y),
              r: zone.radiusM * scale,
            })
          : svg('polygon', {
              class: cls,
              points: zone.polygonM.map((p) => `${px(p.x)},${py(p.y)}`).join(' '),
            });
    const [low, high] = zoneHeightM(zone);
    const height = `z ${metres(low)} to ${metres(high)} m`;
    shape.append(
      svg(
        'title',
        {},
        inBand(zone) || band === undefined
          ? `keep-out zone ${zone.id} (${zone.shape}), ${height}`
          : `keep-out zone ${zone.id} (${zone.shape}), ${height}: above or below the path (z ${metres(band[0]!)} to ${metres(band[1]!)} m)`,
      ),
    );
    const [x0, , , y1] = zoneExtent(zone);
    plot.append(shape);
    labels.push(svg('text', { x: px(x0) + 2, y: py(y1) + 10 }, zone.id));
  }
  if (request.pathM.length > 0) {
    plot.append(
      svg('polyline', {
        class: 'path',
        points: request.pathM.map((p) => `${px(p.xM)},${py(p.yM)}`).join(' '),
      }),
    );
    for (const p of request.pathM) {
      plot.append(
        svg(
          'circle',
          { class: 'point', cx: px(p.xM), cy: py(p.yM), r: 2.5 },
          svg('title', {}, `t=${p.tMs} ms z=${p.zM} m`),
        ),
      );
    }
  }
  plot.append(...labels);
  return plot;
}
