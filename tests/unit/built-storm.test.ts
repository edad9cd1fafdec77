/**
 * Storm mode on the prebuilt pages (dist/, happy-dom, no script): home, emergency and
 * find-a-pro carry the "check my ZIP" GET form to /storm and nothing of any storm, so they
 * weigh the same for everyone; the notice itself renders on demand (docs/storms.md).
 */
import { within } from "@testing-library/dom";
import { describe, expect, it } from "vitest";
import { STORM_NOTICE } from "../../src/lib/storm.ts";
import { builtPage } from "../helpers/dist.ts";

describe("the storm check on static pages", () => {
  it.each(["/", "/services/emergency", "/find-a-tree-service"])(
    "%s: a plain GET form to /storm, no storm data",
    (route) => {
      const { main, html } = builtPage(route);
      const forms = main.querySelectorAll<HTMLFormElement>('form[action="/storm"]');
      expect(forms).toHaveLength(1);
      const form = forms[0]!;
      expect(form.getAttribute("method")).toBe("get");
      const zip = within(form).getByLabelText(STORM_NOTICE.checkLabel);
      expect(zip.getAttribute("name")).toBe("zip");
      expect(zip.getAttribute("pattern")).toBe("[0-9]{5}");
      expect(within(form).getByRole("button", { name: STORM_NOTICE.checkButton }).getAttribute("type")).toBe("submit");
      // Nothing of a storm is prebuilt: no notice, no rule.
      expect(html).not.toContain('data-testid="storm-notice"');
      expect(html).not.toContain("Penal Code 396");
    },
  );
});
