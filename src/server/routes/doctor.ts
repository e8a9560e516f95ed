// `GET /doctor` and `GET /doctor/{name}` (docs/api.md §GET /doctor): why the index is what it is. Computed from the
// workspace's snapshot (what loaded, who lost to whom) and a look at its directories, once per snapshot: concurrent
// requests share the computation in flight, later ones of the same generation its result, and a new generation
// computes afresh (docs/api.md "Security defaults"; a report of thousands of skills costs up to a second of CPU).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { computeDiagnosis, doctorReport, nameReport } from '../../answers/doctor-answers.js';
import type { WorkspaceDiagnosis } from '../../discovery/doctor/types.js';
import type { WorkspaceSnapshot } from '../../live-index/snapshot.js';
import type { WorkspaceView } from '../plugins/workspaces.js';
import { errorResponses } from '../schemas/common.js';
import { DoctorNameParams, DoctorQuery, DoctorResponse, SkillDoctorResponse } from '../schemas/doctor.js';

export const doctorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Dropped with their snapshot when the index moves on.
  const reports = new WeakMap<WorkspaceSnapshot, Promise<WorkspaceDiagnosis>>();
  const diagnose = (view: WorkspaceView): Promise<WorkspaceDiagnosis> => {
    let report = reports.get(view.snapshot);
    if (report === undefined) {
      app.metrics.countDoctorReport();
      report = computeDiagnosis(view);
      reports.set(view.snapshot, report);
      // A failure is not remembered: the next request tries again.
      report.catch(() => reports.delete(view.snapshot));
    }
    return report;
  };

  app.get(
    '/doctor',
    {
      schema: {
        operationId: 'getDoctorReport',
        summary: 'Every skills directory looked at, near misses, pipeline outcomes and Agent Skills advice',
        querystring: DoctorQuery,
        response: { 200: DoctorResponse, ...errorResponses() },
      },
    },
    async (request) => {
      const view = await app.workspaceView(request.query.cwd);
      const diagnosis = await diagnose(view);
      return doctorReport(view, diagnosis, request.query.severity);
    },
  );

  app.get(
    '/doctor/:name',
    {
      schema: {
        operationId: 'diagnoseName',
        summary: 'Every candidate of one name across providers, which one won and why each other lost',
        description: 'A name nobody claims answers 200 with no candidates and the near misses of that folder name.',
        params: DoctorNameParams,
        querystring: DoctorQuery,
        response: { 200: SkillDoctorResponse, ...errorResponses() },
      },
    },
    async (request) => {
      const view = await app.workspaceView(request.query.cwd);
      const { name } = request.params;
      const diagnosis = await diagnose(view);
      const { agents: state } = await app.agentViewsOf(request.query.cwd);
      return nameReport(view, name, diagnosis, await state.views.matrix(), request.query.severity);
    },
  );
};
