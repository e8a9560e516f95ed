// `GET /doctor` and `GET /doctor/{name}` (API.md §GET /doctor): why the index is what it is. Computed on request from
// the workspace's current snapshot (what loaded, who lost to whom) and a fresh look at its directories.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { doctorAgents } from '../../discovery/agents/answers.js';
import { diagnoseName, diagnoseWorkspace } from '../../discovery/doctor/diagnose-workspace.js';
import type { WorkspaceView } from '../plugins/workspaces.js';
import { errorResponses } from '../schemas/common.js';
import { DoctorNameParams, DoctorQuery, DoctorResponse, SkillDoctorResponse } from '../schemas/doctor.js';

export const doctorRoutes: FastifyPluginAsyncTypebox = async (app) => {
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
      const { snapshot, workspace } = view;
      return {
        generation: snapshot.generation,
        cwd: snapshot.cwd,
        profile: snapshot.profile,
        directories: diagnosis.directories,
        findings: diagnosis.findings,
        warnings: [...snapshot.warnings],
        collisions: [...snapshot.collisions],
        watch: { mode: (workspace.watcherStatus()?.mode ?? 'off') as 'events' | 'polling' | 'off' },
      };
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
      const report = diagnoseName(name, await diagnose(view), view.snapshot.skill(name));
      const { agents: state } = await app.agentViewsOf(request.query.cwd);
      return { ...report, agents: doctorAgents(state.views, name) ?? {} };
    },
  );
};

function diagnose({ workspace, snapshot }: WorkspaceView) {
  return diagnoseWorkspace({
    // The snapshot's settings: the findings explain the answer they sit next to.
    ctx: { ...workspace.discoveryContext(), settings: snapshot.settings },
    skills: snapshot.skills,
    collisions: snapshot.collisions,
    ...(workspace.fileCache === undefined ? {} : { cache: workspace.fileCache }),
  });
}
